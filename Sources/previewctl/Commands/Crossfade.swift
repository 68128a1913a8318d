import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl crossfade [SECONDS]`.
    struct Crossfade: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "crossfade",
            abstract: "Overlap consecutive tracks by SECONDS (0–15) at the end of each, with an equal-power fade; 0: the gapless join. Without SECONDS, shows it.",
            discussion: """
                Examples:
                  previewctl crossfade 3
                  previewctl crossfade 0
                  previewctl crossfade
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "Seconds, 0–15.")
        var seconds: Int?

        func validate() throws {
            if let seconds, !PlayerCore.crossfadeRange.contains(seconds) { throw ValidationError("crossfade must be 0–15 seconds") }
        }

        func run() throws {
            try root.options.run(.crossfade(seconds), as: StatusReport.self) { "crossfade \($0.crossfade) s" }
        }
    }
}
