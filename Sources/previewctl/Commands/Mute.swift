import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl mute [on|off]`: mute, unmute, or toggle.
    struct Mute: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mute", 
            abstract: "Mute or unmute (toggles when no argument is given).",
            discussion: """
                Examples:
                  previewctl mute
                  previewctl mute off
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "on or off.")
        var state: Switch?

        func run() throws {
            try root.options.run(.mute(state.map { $0 == .on }), as: StatusReport.self, human: Output.status)
        }
    }
}
