import Glibc

/// previewd's log: one line per event on stderr, with time and level. Terminal-unsafe text (names
/// from the API) must be passed through `TerminalText.sanitized` by the caller.
public struct Log: Sendable {
    /// How much to say.
    public enum Level: Int, Comparable, Sendable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Lines below this level are dropped.
    public var minimum: Level

    /// A log that writes `minimum` and above.
    public init(minimum: Level = .info) { self.minimum = minimum }

    /// Writes `message` at `level`.
    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let millis = String(now.tv_nsec / 1_000_000)
        let stamp = "\(now.tv_sec)." + String(repeating: "0", count: 3 - millis.count) + millis
        let line = Array("\(stamp) previewd \(level): \(message())\n".utf8)
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {   // one write per line in practice; stderr may be a pipe
                let n = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}
