import Foundation

/// Debian's snapserver for one test, on loopback ports only, with one `tcp` source in server mode
/// (the one previewd's `--output snapcast://` connects to) and PCM to its clients; and snapclients
/// that play into a PulseAudio sink. The test may restart the server to see previewd reconnect.
public final class SnapcastServer {
    /// previewd's `--output` value for the source.
    public var output: String { "snapcast://127.0.0.1:\(sourcePort)" }
    /// The port the `tcp` source listens on.
    public let sourcePort: UInt16
    /// The port snapclients connect to.
    public let streamPort: UInt16
    /// The server's buffer: what every room hears this much after previewd hands it over.
    public let bufferMs: Int
    /// The JSON-RPC control port (TCP, newline-delimited).
    public let controlPort: UInt16
    private let directory: String
    private var server: ChildProcess?
    private var clients: [ChildProcess] = []
    /// Where each client plays: a sink, and its PulseAudio server (nil: the default).
    private var rooms: [(sink: String, pulseServer: String?)] = []
    private var serverLog: DataCollector?

    /// Writes the configuration; `start` starts the server. A `controlScript` (e.g. a wrapper of
    /// meta_mpd.py) is the source's control script; it needs the HTTP port, which is then on.
    public init(bufferMs: Int = 400, controlScript: String? = nil) throws {
        guard ProcessRunner.which("snapserver") != nil, ProcessRunner.which("snapclient") != nil else {
            throw TestSupportError("snapserver and snapclient not installed (Debian's snapserver, snapclient)")
        }
        self.bufferMs = bufferMs
        directory = NSTemporaryDirectory() + "previewd-snapcast-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        sourcePort = try LoopbackPort.free()
        streamPort = try LoopbackPort.free()
        controlPort = try LoopbackPort.free()
        let http = controlScript == nil ? "enabled = false" : "enabled = true\nbind_to_address = 127.0.0.1\nport = \(try LoopbackPort.free())"
        // A `/` in the source's query breaks snapserver's URI parsing: the path goes percent-encoded.
        let script = controlScript.map { "&controlscript=" + $0.replacingOccurrences(of: "/", with: "%2F") } ?? ""
        let configuration = """
            [server]
            datadir = \(directory)
            [http]
            \(http)
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            source = tcp://127.0.0.1:\(sourcePort)?name=previewd&mode=server&sampleformat=48000:16:2\(script)
            codec = pcm
            buffer = \(bufferMs)
            [logging]
            sink = stderr
            filter = *:notice

            """
        try configuration.write(toFile: directory + "/snapserver.conf", atomically: true, encoding: .utf8)
    }

    /// Starts snapserver and waits until its client port answers.
    public func start() throws {
        let process = try ChildProcess(ProcessRunner.which("snapserver")!, ["-c", directory + "/snapserver.conf"],
                                       captureStderr: true)
        server = process
        serverLog = DataCollector(process.stderr!)
        let listening = eventually(timeout: 15) { () -> Bool? in
            if Self.accepts(port: streamPort) { return true }
            return process.isRunning ? nil : false
        }
        guard listening == true else { throw TestSupportError("snapserver did not start: \(log)") }
    }

    /// A snapclient playing this server's stream into `sink` of the PulseAudio server `pulseServer`.
    public func addClient(sink: String, pulseServer: String?) throws {
        rooms.append((sink, pulseServer))
        try startClient(rooms.count - 1)
    }

    /// Starts the clients again. Debian's snapclient 0.26 reconnects its socket after a server
    /// restart but then stalls (the server logs an immediate end of file), so a test restarts it.
    public func restartClients() throws {
        stopClients()
        for index in rooms.indices { try startClient(index) }
    }

    private func startClient(_ index: Int) throws {
        var environment = ProcessInfo.processInfo.environment
        if let pulseServer = rooms[index].pulseServer { environment["PULSE_SERVER"] = pulseServer }
        clients.append(try ChildProcess(ProcessRunner.which("snapclient")!,
                                        ["-h", "127.0.0.1", "-p", String(streamPort), "--player", "pulse", "-s", rooms[index].sink,
                                         "--hostID", "previewd-test-\(index)", "--logsink", "null"],
                                        environment: environment))
    }

    private func stopClients() {
        for client in clients {
            client.signal(SIGTERM)
            _ = client.wait(timeout: 5)
        }
        clients = []
    }

    /// Sends one JSON-RPC request (`method` with `params`, as JSON text) on the control port and
    /// returns the answer's line (notifications before it are skipped).
    public func rpc(_ method: String, params: String = "{}") throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = controlPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw TestSupportError("snapserver's control port: \(errno)") }
        var timeout = timeval(tv_sec: Int(Patience.seconds(10)), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"\(method)\",\"params\":\(params)}\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw TestSupportError("send: \(errno)")
        }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            while let newline = pending.firstIndex(of: 0x0a) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.contains("\"id\":1") { return line }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { throw TestSupportError("snapserver did not answer \(method)") }
            pending += chunk[..<n]
        }
    }

    /// What snapserver logged.
    public var log: String { serverLog.map { String(decoding: $0.snapshot(), as: UTF8.self) } ?? "" }

    /// Kills snapserver at once (SIGKILL), as a crash would.
    public func kill() {
        server?.signal(SIGKILL)
        _ = server?.wait(timeout: 10)
        server = nil
    }

    /// Stops the clients and the server, and removes the folder.
    public func stop() {
        stopClients()
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
