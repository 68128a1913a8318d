import ArgumentParser

extension Previewctl {
    /// `previewctl prev`: Go to the previous track (at the first, restart it).
    struct Prev: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "prev", abstract: "Go to the previous track (at the first, restart it).")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.prev)
        }
    }
}
