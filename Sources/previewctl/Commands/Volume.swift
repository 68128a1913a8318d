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

        @Argument(parsing: .allUnrecognized, help: "N, +N or -N.")
        var level: [String] = []

        func validate() throws {
            guard level.count <= 1, level.first.map({ VolumeChange(typed: $0) != nil }) ?? true else {
                throw ValidationError("give N (0–100), +N or -N, e.g. volume 60, volume -5")
            }
        }

        func run() throws {
            try root.options.run(.volume(level.first.flatMap { VolumeChange(typed: $0) }), as: StatusReport.self, human: Output.status)
        }
    }
}
