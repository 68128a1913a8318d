import ArgumentParser

extension Previewctl {
    /// `previewctl prev`: Go to the previous track (at the first, restart it).
    struct Prev: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Go to the previous track (at the first, restart it).")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(.prev, human: Output.status)
        }
    }
}
