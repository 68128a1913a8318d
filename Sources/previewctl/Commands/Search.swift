import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl search TERM`: replace the queue with the results and play.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search the iTunes Store, queue the previews and play the first.",
            discussion: """
                Examples:
                  previewctl search "jack johnson"
                  previewctl search --limit 10 beatles
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "What to search for (artist, song, album…).")
        var term: [String]

        @Option(help: "How many results (1–200).")
        var limit: Int = ControlCommand.searchLimits.default

        func validate() throws {
            guard !term.joined().trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("give a search term") }
            guard ControlCommand.searchLimits.range.contains(limit) else { throw ValidationError("--limit must be between 1 and 200") }
        }

        func run() throws {
            try root.options.run(.search(term: term.joined(separator: " "), limit: limit), human: Output.status)
        }
    }
}

import Foundation
