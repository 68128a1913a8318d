/// Where the HTTP stream output listens and what it serves (`--output http://HOST:PORT/NAME.mp3`):
/// the path's suffix picks the format, as in MPD's httpd output the encoder does.
public struct HTTPStreamAddress: Equatable, Sendable, CustomStringConvertible {
    /// The encodings a path's suffix can name.
    public enum Format: String, Sendable {
        /// MP3 through libmp3lame (`.mp3`).
        case mp3
        /// Opus in Ogg through libopus (`.ogg`, `.opus`).
        case opus

        /// The Content-Type listeners are told.
        public var contentType: String { self == .mp3 ? "audio/mpeg" : "audio/ogg" }
    }

    /// A numeric address or a name to bind (IPv6 without brackets).
    public let host: String
    public let port: UInt16
    /// The path as given, starting with `/`.
    public let path: String
    public let format: Format

    /// How an `--output` value for it starts.
    public static let scheme = "http://"
    /// The port MPD's httpd output listens on when none is given.
    public static let defaultPort: UInt16 = 8000

    /// Reads `http://HOST[:PORT]/PATH.(mp3|ogg|opus)`. Throws a message fit for the command line.
    public init(parsing text: String) throws(OutputValueError) {
        guard text.hasPrefix(Self.scheme) else { throw OutputValueError("http: expected \(Self.scheme)HOST:PORT/NAME.mp3 (got \(text))") }
        let rest = text.dropFirst(Self.scheme.count)
        guard let slash = rest.firstIndex(of: "/") else {
            throw OutputValueError("http: the stream needs a path naming its format, as in http://127.0.0.1:8000/previewd.mp3 (got \(text))")
        }
        let authority = rest[..<slash]
        path = String(rest[slash...])
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || "-._~/".contains(c)) }
        guard path.count <= 200, path.allSatisfy(allowed), !path.contains("//"), !path.contains("/.") else {
            throw OutputValueError("http: the path may hold letters, digits and - . _ ~ / (got \(path))")
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".mp3") { format = .mp3 }
        else if lower.hasSuffix(".ogg") || lower.hasSuffix(".opus") { format = .opus }
        else { throw OutputValueError("http: the path must end in .mp3 (MP3, libmp3lame), .ogg or .opus (Opus, libopus) (got \(path))") }
        // The host and port follow snapcast://'s rules.
        (host, port) = try SnapcastAddress.hostAndPort(authority, label: "http", example: "http://127.0.0.1:8000/previewd.mp3",
                                                       defaultPort: Self.defaultPort)
    }

    /// `http://HOST:PORT` (an IPv6 address in brackets).
    public var origin: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    public var description: String { origin + path }
}
