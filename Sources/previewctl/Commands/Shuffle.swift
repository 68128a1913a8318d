import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl shuffle on|off`.
    struct Shuffle: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "shuffle", 
            abstract: "Play the queue in a shuffled order (prev walks back through it), or in its own order.",
            discussion: """
                Examples:
                  previewctl shuffle on
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "on or off.")
        var state: Switch

        func run() throws {
            try root.options.run(.setShuffle(state == .on), as: StatusReport.self, human: Output.status)
        }
    }
}
