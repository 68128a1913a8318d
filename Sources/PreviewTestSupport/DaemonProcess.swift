import Foundation

/// A previewd started for a test, on its own socket; `stop()` sends SIGTERM and returns the exit status.
public final class DaemonProcess {
    /// The control socket.
    public let socketPath: String
    private let process: ChildProcess
    private let stderr: DataCollector

    /// Starts previewd with `arguments` plus `--socket` in a fresh folder, and waits for the socket.
    /// Unless `environment` names them, XDG_CACHE_HOME (artwork) is in that folder and the session
    /// bus is none. With a `launcher` (a command that runs the command after it, e.g. the network
    /// rig), previewd runs under it and signals go to the launcher.
    public init(arguments: [String], environment: [String: String]? = nil, launcher: [String] = []) throws {
        guard let binary = BuildProducts.path("previewd") else {
            throw TestSupportError("previewd is not built next to the tests; run swift build --build-tests")
        }
        let directory = NSTemporaryDirectory() + "previewd-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socketPath = directory + "/previewd.sock"
        // Kept off the desktop's session bus and out of the user's cache unless the test says otherwise.
        var environment = environment ?? ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = environment["XDG_CACHE_HOME"] ?? directory + "/cache"
        environment["DBUS_SESSION_BUS_ADDRESS"] = environment["DBUS_SESSION_BUS_ADDRESS"] ?? "unix:path=" + directory + "/no-bus"
        let command = launcher + [binary, "--socket", socketPath] + arguments
        process = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, captureStderr: true)
        stderr = DataCollector(process.stderr!)
        let deadline = Date(timeIntervalSinceNow: 20)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning, Date() < deadline else {
                throw TestSupportError("previewd did not create its socket; it said: \(log)")
            }
            usleep(10_000)
        }
    }

    /// True while the process runs.
    public var isRunning: Bool { process.isRunning }

    /// The process id.
    public var pid: Int32 { process.pid }

    /// What previewd logged (complete only after `stop()`).
    public var log: String { String(decoding: stderr.snapshot(), as: UTF8.self) }

    /// Sends SIGTERM, waits (at most 20 s, then SIGKILL) and returns the exit status.
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

    /// Starts previewctl against this daemon in the background (for `watch`).
    public func ctlInBackground(_ arguments: String...) throws -> BackgroundCommand {
        guard let binary = BuildProducts.path("previewctl") else { throw TestSupportError("previewctl is not built") }
        return try BackgroundCommand(binary, ["--socket", socketPath] + arguments)
    }
}
