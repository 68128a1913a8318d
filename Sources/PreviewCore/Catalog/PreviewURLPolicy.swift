/// Which preview URLs previewd fetches: only absolute http and https URLs with a host, and not ones
/// that point into this machine or its private network unless that is where the API itself lives.
///
/// Search results are untrusted input; a `previewUrl` of `file:`, `concat:` or a bare path must never
/// reach a fetcher, let alone FFmpeg (which never opens URLs itself here anyway), and a result must not
/// make previewd send requests to local services (`http://127.0.0.1:631/…`).
public enum PreviewURLPolicy {
    /// True when `url` is an absolute http(s) URL with a non-empty host and no control characters.
    public static func isFetchable(_ url: String) -> Bool {
        origin(of: url) != nil
    }

    /// `host:port` of an http(s) URL (the port filled in from the scheme), lower-cased; nil when the
    /// URL is not one previewd fetches.
    public static func origin(of url: String) -> String? {
        guard url.utf8.count <= 4096, !url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            return nil
        }
        let lower = url.lowercased()
        let rest: Substring
        let defaultPort: String
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8); defaultPort = "443" }
        else if lower.hasPrefix("http://") { rest = lower.dropFirst(7); defaultPort = "80" }
        else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host: Substring
        let port: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return nil }
            host = hostAndPort[...close]
            port = hostAndPort[hostAndPort.index(after: close)...].drop { $0 == ":" }
        } else {
            host = hostAndPort.prefix { $0 != ":" }
            port = hostAndPort.dropFirst(host.count + 1)
        }
        guard !host.isEmpty else { return nil }
        return "\(host):\(port.isEmpty ? defaultPort : String(port))"
    }

    /// Why `url` may not be fetched when the API lives at `apiOrigin` (see `origin(of:)`): nil when it
    /// may. A loopback, private or link-local host is refused unless it is the API's own origin.
    public static func localAddressReason(_ url: String, apiOrigin: String?) -> String? {
        guard let origin = origin(of: url) else { return nil }
        let host = String(origin[..<origin.lastIndex(of: ":")!])
        guard isLocal(host), origin != apiOrigin else { return nil }
        return "preview URL points at a local or private address (\(host))"
    }

    /// True for localhost names and loopback, private, link-local and unspecified address literals.
    static func isLocal(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name.hasPrefix("[") {
            let v6 = name.dropFirst().dropLast()
            return v6 == "::1" || v6 == "::" || v6.hasPrefix("fc") || v6.hasPrefix("fd") || v6.hasPrefix("fe8")
                || v6.hasPrefix("fe9") || v6.hasPrefix("fea") || v6.hasPrefix("feb") || v6.hasPrefix("::ffff:")
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 4, parts.allSatisfy({ (0...255).contains($0 ?? -1) }) else {
            // Other numeric forms resolvers read as addresses (2130706433, 0x7f.1, 127.1): refuse any
            // host made only of digits, dots and hex notation.
            return name.contains(where: \.isNumber) && name.allSatisfy { $0.isNumber || $0 == "." || $0 == "x" || ("a"..."f").contains($0) }
        }
        let (a, b) = (parts[0]!, parts[1]!)
        return a == 127 || a == 10 || a == 0 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
            || (a == 169 && b == 254) || (a == 100 && (64...127).contains(b))
    }
}
