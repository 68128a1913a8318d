/// The `Host` values the stream answers to, as previewd-web checks them: a name a DNS rebinding
/// attack could point at this machine is refused unless it is this machine's (`localhost` on
/// loopback, the host name, `NAME.local`); an address is never a rebound name, so any address
/// with the listener's port passes (a wildcard listener answers on every address the machine has).
public struct StreamHostPolicy: Equatable, Sendable {
    /// The port the stream listens on.
    public let port: UInt16
    /// Names (lowercased) that are this machine's.
    public let names: Set<String>

    /// The policy for a listener on `host`:`port`, on a machine called `hostName`.
    public init(host: String, port: UInt16, loopback: Bool, hostName: String?) {
        self.port = port
        var names: Set<String> = [host.lowercased()]
        if loopback { names.insert("localhost") }
        if let hostName = hostName?.lowercased(), !hostName.isEmpty {
            names.insert(hostName)
            if !hostName.contains(".") { names.insert(hostName + ".local") }
        }
        self.names = names
    }

    /// Whether a request with this `Host` header is for the stream.
    public func allows(host header: String) -> Bool {
        let value = header.lowercased()
        var host = Substring(value)
        var givenPort: UInt16 = 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let port = UInt16(after.dropFirst()) else { return false }
                givenPort = port
            }
            return givenPort == port && Self.isIPv6(host)
        }
        if let colon = host.lastIndex(of: ":") {
            guard let port = UInt16(host[host.index(after: colon)...]) else { return false }
            givenPort = port
            host = host[..<colon]
        }
        guard givenPort == port, !host.isEmpty else { return false }
        return names.contains(String(host)) || Self.isIPv4(host)
    }

    private static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && (Int($0) ?? 256) < 256 }
    }

    private static func isIPv6(_ text: Substring) -> Bool {
        text.contains(":") && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
