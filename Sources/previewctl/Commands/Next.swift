import ArgumentParser

extension Previewctl {
    /// `previewctl next`: Skip to the next track.
    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "next", abstract: "Skip to the next track.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.next)
        }
    }
}
