import Glibc
import PreviewCore

/// previewd's log: one line per event on stderr. On a terminal or in a file each line starts with
/// the local wall-clock time; under systemd (stderr is the journal's stream, `JOURNAL_STREAM`) it
/// starts with an sd-daemon priority (`<3>` … `<7>`) instead, so `journalctl -p warning` filters
/// it and the journal adds its own time. Every message is made terminal-safe (`TerminalText`) and
/// cut at `maxMessageLength`, so text from the network (names, server errors) cannot forge lines,
/// move a terminal's cursor or flood the log.
public struct Log: Sendable {
    /// How much to say.
    public enum Level: Int, Comparable, Sendable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        /// The sd-daemon priority prefix (syslog levels: err 3, warning 4, info 6, debug 7).
        var journalPrefix: String {
            switch self {
            case .debug: return "<7>"
            case .info: return "<6>"
            case .warning: return "<4>"
            case .error: return "<3>"
            }
        }
    }

    /// How each line begins.
    public enum Style: Sendable {
        /// Local wall-clock time, to the millisecond.
        case timestamped
        /// An sd-daemon priority prefix and no time.
        case journal

        /// `journal` when stderr is the stream `JOURNAL_STREAM` names (its device and inode, as
        /// systemd sets it; a variable inherited by a child that writes elsewhere does not count).
        public static func detect() -> Style {
            guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return .timestamped }
            let parts = value.split(separator: ":")
            var status = stat()
            guard parts.count == 2, let device = UInt(parts[0]), let inode = UInt(parts[1]),
                  fstat(STDERR_FILENO, &status) == 0 else { return .timestamped }
            return UInt(status.st_dev) == device && UInt(status.st_ino) == inode ? .journal : .timestamped
        }
    }

    /// The longest message written, in characters; longer ones end with "…".
    public static let maxMessageLength = 2000

    /// Lines below this level are dropped.
    public var minimum: Level
    /// How lines begin.
    public var style: Style

    /// A log that writes `minimum` and above, in `style` (by default, what stderr is).
    public init(minimum: Level = .info, style: Style = .detect()) {
        self.minimum = minimum
        self.style = style
    }

    /// Writes `message` at `level`.
    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        let head = style == .journal ? level.journalPrefix : Self.localTime() + " previewd \(level): "
        var text = TerminalText.sanitized(message())
        if text.count > Self.maxMessageLength { text = String(text.prefix(Self.maxMessageLength)) + "…" }
        let line = Array("\(head)\(text)\n".utf8)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {   // one write per line in practice; stderr may be a pipe
                let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }

    /// "2026-11-23 16:04:05.123" in the local time zone.
    static func localTime() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &parts)
        var text = [CChar](repeating: 0, count: 32)
        let length = strftime(&text, text.count, "%Y-%m-%d %H:%M:%S", &parts)
        let millis = Int(now.tv_nsec / 1_000_000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "." + fraction
    }
}
