import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl mark [INDEX]`: the shortlist.
    struct Mark: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mark",
            abstract: "Put the current track (or the one given) on the shortlist, the list \"marked\".",
            discussion: "Examples:\n  previewctl mark\n  previewctl mark 3\n  previewctl export marked --format m3u")

        @ParentCommand var root: Previewctl
        @OptionGroup var item: ItemSelection

        func run() throws {
            try root.options.run(.mark(item.ref), as: MarkReport.self, human: Output.mark)
        }
    }

    /// `previewctl unmark [INDEX]`.
    struct Unmark: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unmark",
            abstract: "Take the current track (or the one given) off the shortlist.")

        @ParentCommand var root: Previewctl
        @OptionGroup var item: ItemSelection

        func run() throws {
            try root.options.run(.unmark(item.ref), as: MarkReport.self, human: Output.mark)
        }
    }
}
