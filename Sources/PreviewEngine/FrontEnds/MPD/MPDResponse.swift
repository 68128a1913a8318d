/// The body of one command's answer as MPD writes it: `key: value` lines and binary chunks
/// (`binary: N`, the bytes, a newline), before the `OK` or `list_OK` the protocol adds.
public struct MPDResponse: Sendable {
    /// The bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty answer.
    public init() {}

    /// Adds `key: value` (a value's line breaks become spaces: a client reads one line per field).
    public mutating func add(_ key: String, _ value: String) {
        bytes += Array("\(key): \(Self.clean(value))\n".utf8)
    }

    /// Adds `key: value` for an integer.
    public mutating func add(_ key: String, _ value: Int) {
        bytes += Array("\(key): \(value)\n".utf8)
    }

    /// Adds `binary: N`, the `chunk` and its closing newline (doc/protocol.rst, "Binary Responses").
    public mutating func addBinary(_ chunk: ArraySlice<UInt8>) {
        bytes += Array("binary: \(chunk.count)\n".utf8)
        bytes += chunk
        bytes.append(0x0a)
    }

    /// Adds what another answer holds.
    public mutating func append(_ other: MPDResponse) {
        bytes += other.bytes
    }

    /// `text` on one line: CR and LF (which would end the field) become spaces.
    static func clean(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }

    /// Milliseconds as MPD writes seconds: `12.345`.
    static func seconds(ms: Int) -> String {
        let ms = max(0, ms)
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Seconds since 1970 as MPD writes a time (ISO 8601, UTC): `2026-11-27T15:04:05Z`.
    static func timestamp(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Civil date from days since 1970 (Howard Hinnant's days_from_civil, inverted).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }
}
