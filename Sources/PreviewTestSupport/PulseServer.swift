import Foundation

/// A private PulseAudio server for one test (a null sink, anonymous access on a socket in a temp
/// folder), which the test may kill and start again on the same socket to see previewd recover.
public final class PulseServer {
    /// `unix:PATH`, for PULSE_SERVER or `previewd --pulse-server`.
    public let address: String
    /// The null sink's name.
    public let sinkName = "previewd_private"
    private let directory: String
    private var process: ChildProcess?

    /// A server that is not started yet.
    public init() throws {
        guard ProcessRunner.which("pulseaudio") != nil else { throw TestSupportError("pulseaudio not installed") }
        directory = NSTemporaryDirectory() + "previewd-pulse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        address = "unix:\(directory)/native"
    }

    /// Starts the server and waits until it answers.
    public func start() throws {
        let arguments = ["-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disable-shm=yes",
                             "--log-target=stderr", "--log-level=error",
                             "-L", "module-null-sink sink_name=\(sinkName) rate=48000 channels=2",
                             "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(directory)/native"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory
        environment["XDG_CONFIG_HOME"] = directory
        environment.removeValue(forKey: "PULSE_SERVER")
        process = try ChildProcess(ProcessRunner.which("pulseaudio")!, arguments, environment: environment)
        let pactl = ProcessRunner.which("pactl")!
        guard eventually(timeout: 15, interval: 0.05, {
            (try? ProcessRunner.run(pactl, ["--server", address, "info"], timeout: 5).status) == 0
        }) else { throw TestSupportError("private PulseAudio did not start") }
    }

    /// Also serves the native protocol on 127.0.0.1 (module-native-protocol-tcp, anonymous), as a
    /// PulseAudio on another machine would; returns its address for `--pulse-server` (`tcp:HOST:PORT`).
    public func listenOnTCP() throws -> String {
        let port = try LoopbackPort.free()
        let result = try ProcessRunner.run(ProcessRunner.which("pactl")!, ["--server", address, "load-module", "module-native-protocol-tcp",
                                                                          "port=\(port)", "listen=127.0.0.1", "auth-anonymous=1"], timeout: 10)
        guard result.status == 0 else { throw TestSupportError("module-native-protocol-tcp did not load: \(result.stderr)") }
        return "tcp:127.0.0.1:\(port)"
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() {
        guard let process else { return }
        process.signal(SIGKILL)
        process.wait(timeout: 10)
        self.process = nil
        try? FileManager.default.removeItem(atPath: directory + "/native")
    }

    /// Stops the server and removes its folder.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
