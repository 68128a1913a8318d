import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl seek SECONDS|M:SS|+N|-N`: move within the current track.
    struct Seek: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "seek", 
            abstract: "Move within the current track: to SECONDS or M:SS, or by +N / -N seconds.",
            discussion: """
                Seeking past the end goes to the next track.

                Examples:
                  previewctl seek 12
                  previewctl seek 0:12.5
                  previewctl seek +5
                  previewctl seek -5
                """)

        @ParentCommand var root: Previewctl

        @Argument(parsing: .allUnrecognized, help: "SECONDS, M:SS, +N or -N.")
        var position: [String] = []

        func validate() throws {
            guard position.count == 1, SeekTarget(typed: position[0]) != nil else {
                throw ValidationError("give one position: SECONDS, M:SS, +N or -N (e.g. seek 12, seek -5)")
            }
        }

        func run() throws {
            try root.options.run(.seek(SeekTarget(typed: position[0])!), as: StatusReport.self, human: Output.status)
        }
    }
}
