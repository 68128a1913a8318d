import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl radio on|off`.
    struct Radio: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "radio",
            abstract: "When the queue is about to end, append a few previews chosen from the catalog (off by default).",
            discussion: """
                Radio follows what you marked and played: other songs of their artists (marked ones
                first), songs of their albums, their genre's chart, in the daemon's storefront, at
                most two catalog calls per batch. It never picks a track in the queue or among the
                last 500 previews heard, and never three in a row by one artist. Each track it adds
                says why (`status`, `queue`, the player). Skipping a radio track within 10 seconds
                counts against its reason. With --autopage the search's next page comes first;
                repeat and single leave the queue as it is. Kept across restarts.
                Examples:
                  previewctl radio on
                  previewctl radio off
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "on or off.")
        var state: Switch

        func run() throws {
            try root.options.run(.setRadio(state == .on), as: StatusReport.self, human: Output.status)
        }
    }
}
