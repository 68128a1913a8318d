import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl play [INDEX]`: play a queue item, or resume.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "play", 
            abstract: "Play the queue item INDEX (0-based) or --id ID, or resume / start when none is given.",
            discussion: """
                Examples:
                  previewctl play
                  previewctl play 3
                  previewctl play --id 17
                """)

        @ParentCommand var root: Previewctl

        @OptionGroup var item: ItemSelection

        func run() throws {
            try root.options.run(.play(item.ref), as: StatusReport.self, human: Output.status)
        }
    }
}
