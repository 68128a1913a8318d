import ArgumentParser

extension Previewctl {
    /// `previewctl next`: Skip to the next track.
    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Skip to the next track.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(.next, human: Output.status)
        }
    }
}
