import Foundation

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
        let stamp = String(format: "%.3f", Date().timeIntervalSince1970)
        FileHandle.standardError.write(Data("\(stamp) previewd \(level): \(message())\n".utf8))
    }
}
