import ArgumentParser

extension Previewctl {
    /// `previewctl resume`: Resume after pause.
    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume after pause.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(.resume, human: Output.status)
        }
    }
}
