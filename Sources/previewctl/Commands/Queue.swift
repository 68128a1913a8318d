import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl queue [--since VERSION]`: list the queue, or what changed in it.
    struct Queue: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "queue",
            abstract: "List the queue: ▶ marks the current track, ✗ the failed ones.",
            discussion: "Examples:\n  previewctl queue\n  previewctl queue --since 41")

        @ParentCommand var root: Previewctl

        @Option(help: ArgumentHelp("Only the items added, moved or changed after this queue version (status' queueVersion).", valueName: "VERSION"))
        var since: Int?

        func validate() throws {
            if let since, since < 0 { throw ValidationError("--since must be 0 or more") }
        }

        func run() throws {
            guard let since else { return try root.options.run(PlainCommand.queue) }
            try root.options.run(.queue(since: since), as: QueueChangesReport.self, human: Output.queueChanges)
        }
    }
}
