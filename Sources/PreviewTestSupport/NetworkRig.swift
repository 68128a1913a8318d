import Foundation

/// `Tests/NetworkRig/netrig.py` for the tests: previewd in a network namespace of its own, with the
/// API (`api`) and a CDN (`cdn`) on two hosts behind TLS terminators and delay proxies, a host that
/// accepts and never answers (`mute`) and a private address that counts who connects (`trap`). The
/// terminators count connections, handshakes and requests (`stats`). Needs root (CI runs as root).
public struct NetworkRig {
    public static let api = "https://127.0.0.1:9443"
    public static let cdn = "https://198.51.100.1"
    public static let mute = "https://198.51.100.2"
    public static let trap = "https://10.9.9.9"

    /// The folder with the rig's CA (`ca.pem`) and statistics.
    public let state: String
    /// previewd, running inside the rig.
    public let daemon: DaemonProcess

    /// Why the rig cannot run here, or nil when it can.
    public static var unavailable: String? {
        if getuid() != 0 { return "the network rig makes a network namespace: it needs root (CI runs as root)" }
        for tool in ["unshare", "ip", "python3", "openssl"] where ProcessRunner.which(tool) == nil { return "\(tool) is not installed" }
        return nil
    }

    /// Starts the rig with round trips of `rttMs` and previewd inside it, talking to the rig's API
    /// with its CA trusted, plus `arguments`.
    public init(rttMs: Int = 40, firstByteMs: Int = 20, arguments: [String]) throws {
        guard let standIn = BuildProducts.path("itunes-standin") else { throw TestSupportError("itunes-standin is not built") }
        state = NSTemporaryDirectory() + "previewd-netrig-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let script = Fixtures.directory.deletingLastPathComponent().appendingPathComponent("NetworkRig/netrig.py").path
        let launcher = [ProcessRunner.which("unshare")!, "-n", ProcessRunner.which("python3")!, script,
                        "--standin", standIn, "--catalog", Fixtures.catalog.path,
                        "--previews", Fixtures.directory.appendingPathComponent("previews").path,
                        "--rtt-ms", String(rttMs), "--first-byte-ms", String(firstByteMs), "--state", state, "--"]
        daemon = try DaemonProcess(arguments: ["--api-base", Self.api, "--ca-file", state + "/ca.pem", "--no-mpris"] + arguments,
                                   launcher: launcher)
    }

    /// What the rig's hosts saw so far.
    public func stats() throws -> [String: Host] {
        try JSONDecoder().decode([String: Host].self, from: Data(contentsOf: URL(fileURLWithPath: state + "/stats.json")))
    }

    /// Stops previewd and the rig; previewd's exit status.
    @discardableResult
    public func stop() -> Int32 {
        defer { try? FileManager.default.removeItem(atPath: state) }
        return daemon.stop()
    }

    /// One host's counts. Times are the rig's monotonic clock, in seconds.
    public struct Host: Decodable {
        public var connections: [Connection]
        public var full: Int?
        public var resumed: Int?
        public var open: Int?
        public var requests: [Request]?

        public struct Connection: Decodable {
            public var accepted: Double
            public var resumed: Bool?
            public var closed: Double?
        }

        public struct Request: Decodable {
            public var connection: Int
            public var method: String
            public var path: String
            public var at: Double
            public var answered: Double?
        }
    }
}
