import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl volume [N|+N|-N]`: the stream's volume, 0–100.
    struct Volume: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "volume", 
            abstract: "Show or set the volume (0–100), or change it by +N / -N.",
            discussion: """
                Examples:
                  previewctl volume
                  previewctl volume 60
                  previewctl volume +5
                  previewctl volume -10
                """)

        @ParentCommand var root: Previewctl

        @Argument(parsing: .allUnrecognized, help: "N (0–100), or +N or -N: a change, the level kept within 0–100.")
        var level: [String] = []

        /// The words given, without the `--` that may come before a negative change.
        private var words: [String] { level.filter { $0 != "--" } }

        func validate() throws {
            guard words.count <= 1, words.first.map({ VolumeChange(typed: $0) != nil }) ?? true else {
                throw ValidationError("give N (0–100) to set the volume, or +N or -N to change it (the level stays within 0–100), "
                                      + "e.g. volume 60, volume +5, volume -5 (or volume -- -5)")
            }
        }

        func run() throws {
            try root.options.run(.volume(words.first.flatMap { VolumeChange(typed: $0) }), as: StatusReport.self, human: Output.status)
        }
    }
}
