import Foundation
import PreviewCore

/// How previewctl writes: results to stdout, errors to stderr, names from the API made terminal-safe.
enum Output {
    static func print(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data("previewctl: \(TerminalText.sanitized(text))\n".utf8))
    }

    static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// `m:ss` for a millisecond count.
    static func clock(_ ms: Int?) -> String {
        guard let ms else { return "-:--" }
        let seconds = max(0, ms) / 1000
        return "\(seconds / 60):" + String(format: "%02d", seconds % 60)
    }

    /// The human form of a status report.
    static func status(_ value: JSONValue) throws -> String {
        let s = try value.decode(as: StatusReport.self)
        let symbol = ["playing": "▶", "paused": "⏸", "loading": "…", "stopped": "■", "idle": "·"][s.state.rawValue] ?? ""
        var lines: [String] = []
        var head = "\(symbol) \(s.state.rawValue)"
        if let index = s.index { head += "  [\(index + 1)/\(s.queueLength)]" } else if s.queueLength > 0 { head += "  [\(s.queueLength) queued]" }
        if let t = s.track { head += "  " + TerminalText.sanitized(t.trackName ?? "Unknown title") }
        lines.append(head)
        if let t = s.track {
            let by = [t.artistName, t.collectionName].compactMap { $0 }.map(TerminalText.sanitized).joined(separator: " — ")
            if !by.isEmpty { lines.append("  " + by) }
            lines.append("  \(clock(s.positionMs)) / \(clock(s.durationMs))")
        }
        var modes = ["volume \(s.volume)%" + (s.muted ? " (muted)" : "")]
        if s.repeat != .off { modes.append("repeat \(s.repeat.rawValue)") }
        if s.shuffle { modes.append("shuffle") }
        if s.buffering { modes.append("buffering…") }
        lines.append("  " + modes.joined(separator: " · "))
        if let e = s.error { lines.append("  error: " + TerminalText.sanitized(e)) }
        if s.output != "ok" { lines.append("  output: " + TerminalText.sanitized(s.output)) }
        return lines.joined(separator: "\n")
    }

    /// The human form of a queue report: `▶` marks the current item, `✗` the failed ones.
    static func queue(_ value: JSONValue) throws -> String {
        let q = try value.decode(as: QueueReport.self)
        guard !q.items.isEmpty else { return "(the queue is empty)" }
        return q.items.enumerated().map { i, item in
            let mark = i == q.index ? "▶" : (item.failure != nil ? "✗" : " ")
            var line = "\(mark) \(String(format: "%3d", i))  " + TerminalText.sanitized(item.track.displayName)
            if item.track.fetchablePreviewURL == nil { line += "  (no preview)" }
            if let failure = item.failure { line += "  (failed: \(TerminalText.sanitized(failure)))" }
            return line
        }.joined(separator: "\n")
    }
}
