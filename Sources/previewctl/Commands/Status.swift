import ArgumentParser

extension Previewctl {
    /// `previewctl status`: Show the state, the track and the position.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the state, the track and the position.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.status)
        }
    }
}
