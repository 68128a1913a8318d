import ArgumentParser
import PreviewCore

extension LoudnessNormalization.Mode: ExpressibleByArgument {}

extension Previewctl {
    /// `previewctl normalize track|off`: loudness normalisation from now on, as `previewd --normalize`.
    struct Normalize: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "normalize",
            abstract: "Even out the tracks' loudness (track) or not (off), from now on.",
            discussion: """
                As previewd --normalize; the tracks held take their new gain smoothly.
                Example:
                  previewctl normalize off
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "track or off.")
        var mode: LoudnessNormalization.Mode

        func run() throws {
            try root.options.run(.setNormalization(mode), as: StatusReport.self, human: Output.status)
        }
    }
}
