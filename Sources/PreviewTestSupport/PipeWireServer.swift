import Foundation

/// A private PipeWire for one test class: `pipewire`, `wireplumber` and `pipewire-pulse` from Debian,
/// on a private `dbus-daemon --session` and a private runtime folder, so previewd's PulseAudio client
/// talks to PipeWire's PulseAudio server as on a current desktop. Null sinks are loaded with pactl.
public final class PipeWireServer {
    /// `unix:PATH` of pipewire-pulse, for `previewd --pulse-server` and pactl/parec.
    public let address: String
    private let directory: String
    private var processes: [ChildProcess] = []
    private let bus: SessionBus

    /// Starts the three servers and waits until pipewire-pulse answers; throws saying what is missing
    /// or did not come up.
    public init() throws {
        for program in ["pipewire", "wireplumber", "pipewire-pulse", "pactl"] where ProcessRunner.which(program) == nil {
            throw TestSupportError("\(program) not installed (Debian's pipewire, wireplumber, pipewire-pulse, pulseaudio-utils)")
        }
        directory = NSTemporaryDirectory() + "previewd-pipewire-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        address = "unix:\(directory)/pulse/native"
        bus = try SessionBus()
        var environment = bus.environment
        for key in ["HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"] { environment[key] = directory }
        environment.removeValue(forKey: "PULSE_SERVER")
        environment.removeValue(forKey: "PIPEWIRE_REMOTE")
        do {
            for program in ["pipewire", "wireplumber", "pipewire-pulse"] {
                processes.append(try ChildProcess(ProcessRunner.which(program)!, [], environment: environment))
            }
            let answering = eventually(timeout: 20, interval: 0.05) { () -> Bool? in
                if (try? pactl(["info"]).status) == 0 { return true }
                return processes.allSatisfy(\.isRunning) ? nil : false
            }
            guard answering == true else {
                throw TestSupportError("PipeWire did not start (pipewire, wireplumber, pipewire-pulse on a private bus)")
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Runs pactl against pipewire-pulse.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> ProcessRunner.Result {
        try ProcessRunner.run(ProcessRunner.which("pactl")!, ["--server", address] + arguments, timeout: 10)
    }

    /// Stops the servers and the bus, and removes the folder.
    public func stop() {
        for process in processes.reversed() {
            process.signal(SIGTERM)
            _ = process.wait(timeout: 5)
        }
        processes = []
        bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
