import ArgumentParser
import Glibc
import PreviewCore

extension Previewctl {
    /// `previewctl history [--limit N]`.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "history",
            abstract: "The previews heard for five seconds or more, newest last (kept on this computer only; nothing is sent anywhere).",
            discussion: "Examples:\n  previewctl history\n  previewctl --json history --limit 100")

        @ParentCommand var root: Previewctl
        @Option(help: "How many (1–10000).") var limit = 20

        func validate() throws {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be 1–10000") }
        }

        func run() throws {
            try root.options.run(.history(limit: limit), as: HistoryReport.self) { report in
                guard !report.entries.isEmpty else { return "(nothing heard yet)" }
                return report.entries.map { entry in
                    let name = [entry.artist, entry.title].compactMap { $0 }.joined(separator: " — ")
                    return "\(Self.localTime(entry.time))  \(TerminalText.sanitized(name))  (\(entry.secondsHeard) s)"
                }.joined(separator: "\n")
            }
        }

        /// `seconds` since 1970 as local "YYYY-MM-DD HH:MM".
        static func localTime(_ seconds: Int) -> String {
            var t = time_t(seconds)
            var parts = tm()
            localtime_r(&t, &parts)
            var buffer = [CChar](repeating: 0, count: 32)
            let n = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
            return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
