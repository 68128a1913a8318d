import ArgumentParser

extension Previewctl {
    /// `previewctl toggle`: Pause when playing, else play.
    struct Toggle: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Pause when playing, else play.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.toggle)
        }
    }
}
