/// Which preview URLs previewd fetches: only absolute http and https URLs with a host.
///
/// Search results are untrusted input; a `previewUrl` of `file:`, `concat:` or a bare path must never
/// reach a fetcher, let alone FFmpeg (which never opens URLs itself here anyway).
public enum PreviewURLPolicy {
    /// True when `url` is an absolute http(s) URL with a non-empty host and no control characters.
    public static func isFetchable(_ url: String) -> Bool {
        guard url.utf8.count <= 4096, !url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            return false
        }
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = lower.dropFirst(8) }
        else if lower.hasPrefix("http://") { rest = lower.dropFirst(7) }
        else { return false }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[") ? hostAndPort : hostAndPort.prefix { $0 != ":" }
        return !host.isEmpty
    }
}
