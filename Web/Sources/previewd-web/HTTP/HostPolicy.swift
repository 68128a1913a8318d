/// The `Host` values previewd-web answers to, and the `Origin`s it accepts: a page served under any
/// other name (a DNS rebinding attack's) gets 421, and a request from another site's page 403.
struct HostPolicy: Sendable {
    /// Allowed `Host` values, lowercased, with the port as a browser writes it.
    let hosts: Set<String>
    /// `https` under TLS, else `http`.
    let scheme: String
    /// The ports of wildcard listeners (0.0.0.0, ::): their addresses are the machine's, as they are now.
    let wildcardPorts: Set<Int>

    /// The hosts for `listeners` (their real addresses, ports resolved): each `ip:port`; with loopback
    /// `localhost:port`; with a wildcard every interface address; the machine's name and `name.local`;
    /// and each `--allow-host` (with every port unless it names one).
    init(listeners: [ListenAddress], allowHosts: [String], tls: Bool,
         interfaces: [String] = NetworkInterfaces.addresses(), hostName: String? = NetworkInterfaces.hostName()) {
        scheme = tls ? "https" : "http"
        wildcardPorts = Set(listeners.filter(\.isWildcard).map(\.port))
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

    /// Whether a request with this `Host` header is for previewd-web. On a wildcard listener an
    /// address the machine got after the start (DHCP, a network that came up later) is one too: a
    /// Host that is an address names it, so no rebound name can pass as one.
    func allows(host: String) -> Bool {
        let host = host.lowercased()
        if hosts.contains(host) { return true }
        guard !wildcardPorts.isEmpty else { return false }
        return NetworkInterfaces.addresses().contains { address in
            wildcardPorts.contains { IPText.hostPort(address.lowercased(), $0) == host }
        }
    }

    /// Whether a request with this `Origin` header comes from previewd-web's own pages.
    func allows(origin: String) -> Bool {
        let lower = origin.lowercased()
        guard lower.hasPrefix(scheme + "://") else { return false }
        return allows(host: String(lower.dropFirst(scheme.count + 3)))
    }
}

private extension String {
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
