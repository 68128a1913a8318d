import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl repeat off|one|all`.
    struct Repeat: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "repeat", 
            abstract: "At the end of a track: go on and stop at the end (off), play it again (one), or start the queue over (all).",
            discussion: """
                Examples:
                  previewctl repeat all
                  previewctl repeat off
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "off, one or all.")
        var mode: RepeatMode

        func run() throws {
            try root.options.run(.setRepeat(mode), as: StatusReport.self, human: Output.status)
        }
    }
}
