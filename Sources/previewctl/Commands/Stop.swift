import ArgumentParser

extension Previewctl {
    /// `previewctl stop`: Stop playback; the queue is kept.
    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop playback; the queue is kept.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.stop)
        }
    }
}
