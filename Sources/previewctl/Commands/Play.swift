import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl play [INDEX]`: play a queue item, or resume.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "play", 
            abstract: "Play the queue item INDEX (0-based), or resume / start when none is given.",
            discussion: """
                Examples:
                  previewctl play
                  previewctl play 3
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "Queue index, 0-based (see previewctl queue).")
        var index: Int?

        func validate() throws {
            if let index, index < 0 { throw ValidationError("INDEX must be 0 or more") }
        }

        func run() throws {
            try root.options.run(.play(index.map(QueueRef.index)), as: StatusReport.self, human: Output.status)
        }
    }
}
