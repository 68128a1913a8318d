import Glibc

/// How previewd's HTTP client keeps its paths warm and whom it trusts.
public struct HTTPClientSettings: Sendable {
    /// Seconds an idle connection is kept for reuse (`--keep-warm`); 0 closes each one when its
    /// transfer ends (and makes no pre-connection).
    public var keepWarmSeconds: Double
    /// A PEM file of certificate authorities to trust besides the system's (`--ca-file`).
    public var caFile: String?
    /// At most this many connections to one host; 0: no limit. previewd's own bounds (the window,
    /// the heads, the artwork) keep it small, and HTTP/2 multiplexes most of it on one.
    public var maxConnectionsPerHost: Int

    /// Connections kept `keepWarmSeconds`, trusting the system's authorities and those in `caFile`.
    public init(keepWarmSeconds: Double = 120, caFile: String? = nil, maxConnectionsPerHost: Int = 0) {
        self.keepWarmSeconds = max(0, keepWarmSeconds)
        self.caFile = caFile
        self.maxConnectionsPerHost = max(0, maxConnectionsPerHost)
    }

    /// Why `path` cannot be a `caFile`: missing, unreadable, not a file, or no PEM certificate in
    /// its first MiB; nil when it can.
    public static func problem(caFile path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))" }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return "not a regular file" }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        let count = read(fd, &bytes, bytes.count)
        guard count >= 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self)
        return text.contains("-----BEGIN CERTIFICATE-----") ? nil : "no PEM certificate in it"
    }
}
