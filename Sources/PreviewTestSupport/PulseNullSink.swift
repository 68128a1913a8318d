import Foundation

/// A PulseAudio null sink made for one test (`pactl load-module module-null-sink`), unloaded by
/// `remove()`. Its monitor source is what a `MonitorRecorder` records.
public final class PulseNullSink {
    /// The sink's name, for `previewd --sink`.
    public let name: String
    private let module: String
    private let serverArguments: [String]

    /// True when `pactl info` reaches a PulseAudio server.
    public static var serverReachable: Bool {
        guard let pactl = ProcessRunner.which("pactl") else { return false }
        return (try? ProcessRunner.run(pactl, ["info"], timeout: 10).status) == 0
    }

    /// Loads a new null sink with a unique name (on `server`, else the default one), running at `rate`.
    /// `rewinds: false` makes a sink that never takes back what it rendered: its monitor then records
    /// the start of a stream exactly as written. A sink that rewinds (every real one) re-renders for
    /// its device what it had rendered ahead, but a monitor cannot take back what it already delivered.
    public init(server: String? = nil, rate: Int = 48_000, rewinds: Bool = true) throws {
        guard let pactl = ProcessRunner.which("pactl") else { throw TestSupportError("pactl not found (pulseaudio-utils)") }
        name = "previewd_test_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        serverArguments = server.map { ["--server", $0] } ?? []
        let result = try ProcessRunner.run(pactl, serverArguments + ["load-module", "module-null-sink", "sink_name=\(name)",
                                                   "rate=\(rate)", "channels=2"] + (rewinds ? [] : ["norewinds=1"]), timeout: 10)
        guard result.status == 0 else { throw TestSupportError("pactl load-module failed: \(result.stderr)") }
        module = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Unloads the sink.
    public func remove() {
        guard let pactl = ProcessRunner.which("pactl") else { return }
        _ = try? ProcessRunner.run(pactl, serverArguments + ["unload-module", module], timeout: 10)
    }
}

/// A failure of the test rig itself (not of the code under test).
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
