/// One `--listen` address: `IP:PORT`, `[IPv6]:PORT`, or a bare `PORT` (on 127.0.0.1).
struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The IP address, without brackets.
    let host: String
    /// The TCP port (0: any free port).
    let port: Int

    /// Parses `text`, or nil when it is not an address previewd-web can listen on.
    init?(_ text: String) {
        if let port = Int(text) {
            self.init(host: "127.0.0.1", port: port)
        } else if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), IPText.isIPv6(host) else { return nil }
            self.init(host: host, port: port)
        } else if let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) {
            let host = String(text[..<colon])
            guard IPText.isIPv4(host) else { return nil }
            self.init(host: host, port: port)
        } else {
            return nil
        }
    }

    init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        self.host = host
        self.port = port
    }

    /// `ip:port` or `[v6]:port`, as a browser writes it in `Host`.
    var description: String { IPText.hostPort(host, port) }

    /// Whether only this machine can reach it (127.0.0.0/8, ::1).
    var isLoopback: Bool { IPText.isLoopback(host) }

    /// Whether it listens on every address (0.0.0.0, ::).
    var isWildcard: Bool { host == "0.0.0.0" || host == "::" }
}
