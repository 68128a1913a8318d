/// Where previewd sends its sound (`previewd --output`).
public enum OutputChoice: Equatable, Sendable, CustomStringConvertible {
    /// A PulseAudio server (or PipeWire through pipewire-pulse): `--sink` and `--pulse-server` apply.
    case pulse
    /// A snapserver `tcp` source in server mode: previewd connects and sends s16le 48 kHz stereo.
    case snapcast(host: String, port: UInt16)
    /// A FIFO (snapserver's `pipe` source, the shape of MPD's fifo output), same PCM.
    case pipe(path: String)

    /// The port snapserver's `tcp` source listens on when its URI names none.
    public static let snapcastDefaultPort: UInt16 = 4953

    /// Reads `pulse`, `snapcast://HOST[:PORT]` (an IPv6 address in brackets) or `pipe:PATH` (absolute;
    /// `pipe:///PATH` too). Throws a message fit for the command line.
    public init(parsing text: String) throws(OutputChoiceError) {
        if text == "pulse" {
            self = .pulse
        } else if text.hasPrefix("snapcast://") {
            let authority = text.dropFirst("snapcast://".count)
            let trimmed = authority.hasSuffix("/") ? authority.dropLast() : authority
            let (host, port) = try Self.hostAndPort(trimmed)
            self = .snapcast(host: host, port: port)
        } else if text.hasPrefix("pipe:") {
            var path = text.dropFirst("pipe:".count)
            if path.hasPrefix("//") { path = path.dropFirst(2) }
            guard path.hasPrefix("/"), path.count > 1, !path.contains("\0") else {
                throw OutputChoiceError("pipe: needs an absolute path, as in pipe:/tmp/snapfifo (got \(text))")
            }
            self = .pipe(path: String(path))
        } else {
            throw OutputChoiceError("--output must be pulse, snapcast://HOST:PORT or pipe:PATH (got \(text))")
        }
    }

    private static func hostAndPort(_ authority: Substring) throws(OutputChoiceError) -> (String, UInt16) {
        let host: Substring
        var rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw OutputChoiceError("snapcast: unclosed [ in \(authority)") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            rest = authority[authority.index(after: close)...]
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw OutputChoiceError("snapcast: [\(host)] is not an IPv6 address")
            }
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<colon]
            rest = authority[colon...]
            let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-") }
            guard !host.isEmpty, host.allSatisfy(allowed) else {
                throw OutputChoiceError("snapcast: the host must be a name or an address, as in snapcast://127.0.0.1:4953 (got \(authority))")
            }
        }
        guard !rest.isEmpty else { return (String(host), snapcastDefaultPort) }
        guard rest.hasPrefix(":") else { throw OutputChoiceError("snapcast: unexpected \(rest) after the host") }
        rest = rest.dropFirst()
        guard !rest.isEmpty, rest.count <= 5, rest.allSatisfy(\.isASCII), rest.allSatisfy(\.isNumber),
              let port = UInt16(rest), port > 0 else {
            throw OutputChoiceError("snapcast: the port must be 1–65535 (got \(rest))")
        }
        return (String(host), port)
    }

    public var description: String {
        switch self {
        case .pulse: return "pulse"
        case .snapcast(let host, let port): return host.contains(":") ? "snapcast://[\(host)]:\(port)" : "snapcast://\(host):\(port)"
        case .pipe(let path): return "pipe:\(path)"
        }
    }
}

/// Why an `--output` value was refused.
public struct OutputChoiceError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
