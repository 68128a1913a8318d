import ArgumentParser

extension Previewctl {
    /// `previewctl retry`: try failed tracks again, and the track waiting for the network now.
    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Try again now: forget every track's failure, and end a wait for the network with a try.",
            discussion: "The same as MPD's clearerror. `play N` on a failed track also tries it anew.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.retry)
        }
    }
}
