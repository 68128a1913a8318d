/// Where a `LineServer` listens: a Unix-domain socket (private: 0600, peers of another user refused)
/// or, only when a front-end asks for it, TCP. Whoever asks for TCP decides its policy (loopback
/// only, a password): the server only listens.
public enum ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A Unix-domain stream socket at this path.
    case unix(String)
    /// TCP on `host` (a numeric IPv4 or IPv6 address, or a name such as `localhost`) and `port` (0:
    /// any free port, see `Listener.port`).
    case tcp(host: String, port: UInt16)

    /// An address as a user writes it: a path (it holds a `/`), or `HOST:PORT` (`[::1]:6600` for IPv6).
    public init(parsing text: String) throws(ListenerError) {
        if text.contains("/") {
            self = .unix(text)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw .badAddress(text, why: "expected a socket path or HOST:PORT")
        }
        var host = Substring(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw .badAddress(text, why: "no host before the port") }
        self = .tcp(host: String(host), port: port)
    }

    /// The address as `init(parsing:)` reads it.
    public var description: String {
        switch self {
        case .unix(let path): return path
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
