import ArgumentParser
import PreviewCore

extension SingleMode: ExpressibleByArgument {}

extension Previewctl {
    /// `previewctl single on|off|oneshot`.
    struct Single: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "single",
            abstract: "At the end of the current track: stop (on; with repeat, play it again), do that once (oneshot), or go on (off).",
            discussion: """
                Examples:
                  previewctl single oneshot
                  previewctl single off
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "on, off or oneshot.")
        var mode: SingleMode

        func run() throws {
            try root.options.run(.setSingle(mode), as: StatusReport.self, human: Output.status)
        }
    }

    /// `previewctl consume on|off`.
    struct Consume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "consume",
            abstract: "Remove each track from the queue once it has played (heard to its end, or left by next, prev or play).",
            discussion: "Example:\n  previewctl consume on")

        @ParentCommand var root: Previewctl

        @Argument(help: "on or off.")
        var state: Switch

        func run() throws {
            try root.options.run(.setConsume(state == .on), as: StatusReport.self, human: Output.status)
        }
    }
}
