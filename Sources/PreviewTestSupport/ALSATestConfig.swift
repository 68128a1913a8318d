import Foundation

/// An ALSA configuration of the test's own, read through `ALSA_CONFIG_PATH` (set for this process,
/// and in `environment` for a previewd started by the test):
/// one PCM named `device` (and its control), either ALSA's PulseAudio plugin into a test's null sink
/// or ALSA's `file` plugin writing raw frames. A new file each time, so alsa-lib reads it again.
public struct ALSATestConfig {
    /// The PCM's name, for `--output alsa:NAME`.
    public let device: String
    /// The configuration file.
    public let path: String

    /// The PulseAudio plugin playing into `pulseSink` (on `server`, else libpulse's default).
    public init(pulseSink: String, server: String?) throws {
        let where_ = "device \"\(pulseSink)\"" + (server.map { " server \"\($0)\"" } ?? "")
        try self.init { "pcm.\($0) { type pulse \(where_) }\nctl.\($0) { type pulse \(where_) }\n" }
    }

    /// The file plugin writing every frame played, as the device takes it, into `file`.
    public init(rawFile file: String) throws {
        try self.init { "pcm.\($0) { type file slave.pcm { type null } file \"\(file)\" format \"raw\" }\n" }
    }

    private init(text: (String) -> String) throws {
        device = "previewd_test_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(device).asoundrc").path
        try text(device).write(toFile: path, atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", path, 1)
    }

    /// This process's environment, reading this configuration.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = path
        return environment
    }

    /// Deletes the file (and forgets it in this process's environment).
    public func remove() {
        if let current = getenv("ALSA_CONFIG_PATH"), String(cString: current) == path { unsetenv("ALSA_CONFIG_PATH") }
        try? FileManager.default.removeItem(atPath: path)
    }
}
