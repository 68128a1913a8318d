import ArgumentParser

extension Previewctl {
    /// `previewctl resume`: Resume after pause.
    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume after pause.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.resume)
        }
    }
}
