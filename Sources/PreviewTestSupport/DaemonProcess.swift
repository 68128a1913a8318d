import Foundation

/// A previewd started for a test, on its own socket; `stop()` sends SIGTERM and returns the exit status.
public final class DaemonProcess {
    /// The control socket.
    public let socketPath: String
    /// MPD's protocol: its own socket in the daemon's folder unless the test gave `--mpd`.
    public let mpdSocketPath: String
    private let process: ChildProcess
    private let stderr: DataCollector

    /// Starts previewd with `arguments` plus `--socket` in a fresh folder, and waits for the socket.
    /// Unless `environment` names them, XDG_CACHE_HOME (artwork), XDG_STATE_HOME (state, history)
    /// and XDG_DATA_HOME (saved lists) are in that folder and the session bus is none. With a `launcher` (a command that runs the command after it, e.g. the network
    /// rig), previewd runs under it and signals go to the launcher.
    public init(arguments: [String], environment: [String: String]? = nil, launcher: [String] = []) throws {
        guard let binary = BuildProducts.path("previewd") else {
            throw TestSupportError("previewd is not built next to the tests; run swift build --build-tests")
        }
        let directory = NSTemporaryDirectory() + "previewd-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        DaemonFolders.add(directory)
        socketPath = directory + "/previewd.sock"
        mpdSocketPath = directory + "/mpd.sock"
        // Kept off the desktop's session bus and out of the user's cache unless the test says otherwise.
        let inherited = ProcessInfo.processInfo.environment
        var environment = environment ?? inherited
        // A fresh cache, state and data folder each, unless the test chose one (a restart test does).
        for (key, folder) in [("XDG_CACHE_HOME", "/cache"), ("XDG_STATE_HOME", "/state"), ("XDG_DATA_HOME", "/data")]
        where environment[key] == nil || environment[key] == inherited[key] {
            environment[key] = directory + folder
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = environment["DBUS_SESSION_BUS_ADDRESS"] ?? "unix:path=" + directory + "/no-bus"
        // Each daemon serves MPD on a socket of its own, never on the user's default one.
        let mpd = arguments.contains("--mpd") ? [] : ["--mpd", mpdSocketPath]
        let command = launcher + [binary, "--socket", socketPath] + mpd + arguments
        process = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, captureStderr: true)
        stderr = DataCollector(process.stderr!)
        let listening = eventually(timeout: 20, interval: 0.01) { () -> Bool? in
            if FileManager.default.fileExists(atPath: socketPath) { return true }
            return process.isRunning ? nil : false
        }
        guard listening == true else {
            throw TestSupportError("previewd did not create its socket; it said: \(log)")
        }
    }

    /// True while the process runs.
    public var isRunning: Bool { process.isRunning }

    /// The process id.
    public var pid: Int32 { process.pid }

    /// What previewd logged (complete only after `stop()`).
    public var log: String { String(decoding: stderr.snapshot(), as: UTF8.self) }

    /// Sends SIGTERM, waits (at most 20 s times the patience, then SIGKILL) and returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        process.signal(SIGTERM)
        return process.wait(timeout: 20)
    }

    /// Runs previewctl against this daemon.
    public func ctl(_ arguments: String...) throws -> ProcessRunner.Result {
        try ctl(arguments)
    }

    /// Runs previewctl against this daemon with `arguments` (and `environment`, else the test's).
    public func ctl(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessRunner.Result {
        guard let binary = BuildProducts.path("previewctl") else { throw TestSupportError("previewctl is not built") }
        return try ProcessRunner.run(binary, ["--socket", socketPath] + arguments, environment: environment)
    }

    /// Sends one request line of the JSON protocol (`{"id":1,"cmd":…}`) on a new connection and
    /// returns previewd's answer line, for requests previewctl has no words for.
    public func request(_ line: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw TestSupportError("connect \(socketPath): \(errno)") }
        let bytes = Array((line + "\n").utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else { throw TestSupportError("write: \(errno)") }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !answer.contains(UInt8(ascii: "\n")) {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            answer += buffer[..<n]
        }
        return String(decoding: answer.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// Starts previewctl against this daemon in the background (for `watch`).
    public func ctlInBackground(_ arguments: String...) throws -> BackgroundCommand {
        guard let binary = BuildProducts.path("previewctl") else { throw TestSupportError("previewctl is not built") }
        return try BackgroundCommand(binary, ["--socket", socketPath] + arguments)
    }
}

/// The daemons' folders, removed when the tests' process exits: a restart test hands one daemon's
/// state to the next, so no folder can go with its daemon.
private enum DaemonFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: [String] = []   // under `lock`
    private static let removedAtExit: Void = { atexit { DaemonFolders.removeAll() } }()

    static func add(_ folder: String) {
        _ = removedAtExit
        lock.withLock { folders.append(folder) }
    }

    private static func removeAll() {
        for folder in lock.withLock({ folders }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}
