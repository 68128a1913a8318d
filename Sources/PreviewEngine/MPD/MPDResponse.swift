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
}
