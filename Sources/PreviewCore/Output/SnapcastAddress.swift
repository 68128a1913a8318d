/// A snapserver `tcp` source in server mode (`--output snapcast://HOST[:PORT]`): previewd connects
/// and sends s16le 48 kHz stereo.
public struct SnapcastAddress: Equatable, Sendable, CustomStringConvertible {
    /// A name or an address (IPv6 without brackets).
    public let host: String
    public let port: UInt16

    /// The port snapserver's `tcp` source listens on when its URI names none.
    public static let defaultPort: UInt16 = 4953
    /// How an `--output` value for it starts.
    public static let scheme = "snapcast://"

    /// An address as given.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads `snapcast://HOST[:PORT]` (an IPv6 address in brackets, a trailing `/` allowed). Throws a
    /// message fit for the command line.
    public init(parsing text: String) throws(OutputValueError) {
        guard text.hasPrefix(Self.scheme) else { throw OutputValueError("snapcast: expected \(Self.scheme)HOST:PORT (got \(text))") }
        let authority = text.dropFirst(Self.scheme.count)
        let trimmed = authority.hasSuffix("/") ? authority.dropLast() : authority
        (host, port) = try Self.hostAndPort(trimmed)
    }

    /// Reads `HOST[:PORT]` (an IPv6 address in brackets); `label` starts the messages. Shared with
    /// `HTTPStreamAddress`.
    static func hostAndPort(_ authority: Substring, label: String = "snapcast", example: String = "snapcast://127.0.0.1:4953",
                            defaultPort: UInt16 = defaultPort) throws(OutputValueError) -> (String, UInt16) {
        let host: Substring
        var rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw OutputValueError("\(label): unclosed [ in \(authority)") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            rest = authority[authority.index(after: close)...]
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw OutputValueError("\(label): [\(host)] is not an IPv6 address")
            }
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<colon]
            rest = authority[colon...]
            let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-") }
            guard !host.isEmpty, host.allSatisfy(allowed) else {
                throw OutputValueError("\(label): the host must be a name or an address, as in \(example) (got \(authority))")
            }
        }
        guard !rest.isEmpty else { return (String(host), defaultPort) }
        guard rest.hasPrefix(":") else { throw OutputValueError("\(label): unexpected \(rest) after the host") }
        rest = rest.dropFirst()
        guard !rest.isEmpty, rest.count <= 5, rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber),
              let port = UInt16(rest), port > 0 else {
            throw OutputValueError("\(label): the port must be 1–65535 (got \(rest))")
        }
        return (String(host), port)
    }

    public var description: String {
        host.contains(":") ? "snapcast://[\(host)]:\(port)" : "snapcast://\(host):\(port)"
    }
}
