import ArgumentParser

extension Previewctl {
    /// `previewctl queue`: list the queue.
    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "queue", abstract: "List the queue: ▶ marks the current track, ✗ the failed ones.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.queue)
        }
    }
}
