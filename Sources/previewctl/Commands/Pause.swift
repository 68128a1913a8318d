import ArgumentParser

extension Previewctl {
    /// `previewctl pause`: Pause (cork the output; the position is kept).
    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause (cork the output; the position is kept).")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.pause)
        }
    }
}
