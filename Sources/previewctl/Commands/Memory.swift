import ArgumentParser

extension Previewctl {
    /// `previewctl memory`.
    struct Memory: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "memory",
            abstract: "Show what previewd holds: its anonymous memory, the loads alive and every store against its bound.",
            discussion: "Examples:\n  previewctl memory\n  previewctl --json memory")
        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.memory)
        }
    }
}
