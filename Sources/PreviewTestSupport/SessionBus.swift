import Foundation

/// A private D-Bus session bus for one test: Debian's `dbus-daemon --session` listening on a
/// socket in a fresh folder, so MPRIS tests never touch the desktop's own bus.
public final class SessionBus {
    /// `DBUS_SESSION_BUS_ADDRESS` for the test's processes.
    public let address: String
    private let process: ChildProcess
    private let directory: String

    /// Starts the bus; throws when dbus-daemon is missing or does not come up.
    public init() throws {
        guard let daemon = ProcessRunner.which("dbus-daemon") else {
            throw TestSupportError("dbus-daemon not installed (Debian's dbus-daemon; scripts/test installs it)")
        }
        directory = NSTemporaryDirectory() + "previewd-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let socket = directory + "/bus"
        address = "unix:path=" + socket
        process = try ChildProcess(daemon, ["--session", "--nofork", "--nopidfile", "--address=" + address], captureStderr: true)
        let listening = eventually(timeout: 10, interval: 0.01) { () -> Bool? in
            if FileManager.default.fileExists(atPath: socket) { return true }
            return process.isRunning ? nil : false
        }
        guard listening == true else { throw TestSupportError("dbus-daemon did not start") }
    }

    /// The test's environment with this bus as the session bus.
    public var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
    }

    /// Runs a client program (`playerctl`, `dbus-send`) on this bus.
    @discardableResult
    public func run(_ program: String, _ arguments: [String]) throws -> ProcessRunner.Result {
        guard let path = ProcessRunner.which(program) else { throw TestSupportError("\(program) not installed") }
        return try ProcessRunner.run(path, arguments, environment: environment, timeout: 20)
    }

    /// Stops the bus and removes its folder.
    public func stop() {
        process.signal(SIGTERM)
        _ = process.wait(timeout: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
