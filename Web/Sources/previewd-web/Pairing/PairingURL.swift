/// The address a phone opens to pair: `http(s)://HOST:PORT/pair?token=TOKEN`.
enum PairingURL {
    /// HOST is `urlHost` if given, else the first non-loopback listen address, else for 0.0.0.0 or ::
    /// the machine's first non-loopback IPv4 address, else the first listen address.
    static func make(listeners: [ListenAddress], urlHost: String?, tls: Bool, token: String,
                     firstIPv4: () -> String? = NetworkInterfaces.firstNonLoopbackIPv4) -> String {
        let scheme = tls ? "https" : "http"
        let chosen = listeners.first { !$0.isLoopback && !$0.isWildcard }
            ?? listeners.first { $0.isWildcard } ?? listeners.first
        let port = chosen?.port ?? 8765
        let host: String
        if let urlHost {
            host = urlHost.contains(":") && !urlHost.hasPrefix("[") ? "[\(urlHost)]" : urlHost
        } else if let chosen, chosen.isWildcard {
            host = firstIPv4() ?? "127.0.0.1"
        } else {
            host = chosen.map { $0.host.contains(":") ? "[\($0.host)]" : $0.host } ?? "127.0.0.1"
        }
        return "\(scheme)://\(host):\(port)/pair?token=\(token)"
    }
}
