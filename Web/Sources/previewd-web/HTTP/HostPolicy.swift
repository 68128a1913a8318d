/// The `Host` values previewd-web answers to, and the `Origin`s it accepts: a page served under any
/// other name (a DNS rebinding attack's) gets 421, and a request from another site's page 403.
struct HostPolicy: Sendable {
    /// Allowed `Host` values, lowercased, with the port as a browser writes it.
    let hosts: Set<String>
    /// `https` under TLS, else `http`.
    let scheme: String

    /// The hosts for `listeners` (their real addresses, ports resolved): each `ip:port`; with loopback
    /// `localhost:port`; with a wildcard every interface address; the machine's name and `name.local`;
    /// and each `--allow-host` (with every port unless it names one).
    init(listeners: [ListenAddress], allowHosts: [String], tls: Bool,
         interfaces: [String] = NetworkInterfaces.addresses(), hostName: String? = NetworkInterfaces.hostName()) {
        scheme = tls ? "https" : "http"
        let defaultPort = tls ? 443 : 80
        var hosts = Set<String>()
        func add(_ name: String, _ port: Int) {
            let name = name.lowercased()
            hosts.insert(IPText.hostPort(name, port))
            if port == defaultPort { hosts.insert(name.contains(":") ? "[\(name)]" : name) }
        }
        for listener in listeners {
            var names = [listener.host]
            if listener.isWildcard { names += interfaces.filter { listener.host == "::" || IPText.isIPv4($0) } }
            if names.contains(where: IPText.isLoopback) { names.append("localhost") }
            if let hostName {
                names.append(hostName)
                if !hostName.contains(".") { names.append(hostName + ".local") }
            }
            for name in names { add(name, listener.port) }
            for extra in allowHosts {
                if extra.contains(":") && !extra.hasSuffix("]") { hosts.insert(extra.lowercased()) }
                else { add(extra.trimmingBrackets, listener.port) }
            }
        }
        self.hosts = hosts
    }

    /// Whether a request with this `Host` header is for previewd-web.
    func allows(host: String) -> Bool { hosts.contains(host.lowercased()) }

    /// Whether a request with this `Origin` header comes from previewd-web's own pages.
    func allows(origin: String) -> Bool {
        let lower = origin.lowercased()
        guard lower.hasPrefix(scheme + "://") else { return false }
        return hosts.contains(String(lower.dropFirst(scheme.count + 3)))
    }
}

private extension String {
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
