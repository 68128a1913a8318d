#if canImport(Glibc)
import Glibc
#endif

/// IP addresses as text: what kind they are and how a browser writes them in `Host`.
enum IPText {
    /// Whether `text` is a dotted IPv4 address.
    static func isIPv4(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }

    /// Whether `text` is an IPv6 address (no brackets).
    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// Whether `text` is a loopback address: 127.0.0.0/8, ::1, or 127.x mapped into IPv6.
    static func isLoopback(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.hasPrefix("::ffff:") { return isLoopback(String(lower.dropFirst(7))) }
        if isIPv4(lower) { return lower.hasPrefix("127.") }
        return lower == "::1"
    }

    /// `host:port`, with brackets around an IPv6 address.
    static func hostPort(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
