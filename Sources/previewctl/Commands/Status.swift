import ArgumentParser

extension Previewctl {
    /// `previewctl status`: Show the state, the track and the position.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the state, the track and the position.")

        @ParentCommand var root: Previewctl

        @Flag(help: "Draw the track's artwork beside the text (a terminal with 256 or 24-bit colours).")
        var art = false

        func run() throws {
            var invocation = root.options.invocation
            if art { invocation.art = ArtworkPanel(item: nil) }
            try PlainCommand.status.run(invocation)
        }
    }
}
