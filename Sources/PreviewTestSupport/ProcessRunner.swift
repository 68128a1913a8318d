import Foundation

/// Runs helper programs (previewctl, pactl) to completion and captures what they print.
public enum ProcessRunner {
    /// What a finished program left.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments`; `timeout` guards against a hang (the process is killed).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           timeout: TimeInterval = 60) throws -> Result {
        let child = try ChildProcess(executable, arguments, environment: environment, captureStdout: true, captureStderr: true)
        let outData = DataCollector(child.stdout!)
        let errData = DataCollector(child.stderr!)
        let status = child.wait(timeout: timeout)
        return Result(status: status,
                      stdout: String(decoding: outData.finish(), as: UTF8.self),
                      stderr: String(decoding: errData.finish(), as: UTF8.self))
    }

    /// Finds `name` on PATH.
    public static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Reads a pipe to its end on a background thread (so a chatty child never blocks on a full pipe).
public final class DataCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle`.
    public init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock(); data.append(chunk); lock.unlock()
            }
            done.signal()
        }.start()
    }

    /// What was read so far.
    public func snapshot() -> Data {
        lock.lock(); defer { lock.unlock() }
        return data
    }

    func finish() -> Data {
        _ = done.wait(timeout: .now() + Patience.seconds(5))
        lock.lock(); defer { lock.unlock() }
        return data
    }
}

/// A program left running in the background (e.g. `previewctl watch`) whose output can be read as it comes.
public final class BackgroundCommand {
    private let child: ChildProcess
    private let out: DataCollector
    private let err: DataCollector

    /// Starts `executable` with `arguments` (and `environment`, else the test's).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        child = try ChildProcess(executable, arguments, environment: environment, captureStdout: true, captureStderr: true)
        out = DataCollector(child.stdout!)
        err = DataCollector(child.stderr!)
    }

    /// What it printed so far.
    public var output: String { String(decoding: out.snapshot(), as: UTF8.self) }

    /// What it printed on its standard error so far (where `previewctl watch` says it is subscribed).
    public var errors: String { String(decoding: err.snapshot(), as: UTF8.self) }

    /// Waits (at most `timeout` seconds, times the patience) until the output contains `text`.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 10) -> Bool {
        eventually(timeout: timeout) { output.contains(text) }
    }

    /// Waits until `previewctl watch` says it is subscribed: every event after this is printed.
    @discardableResult
    public func waitUntilWatching(timeout: TimeInterval = 10) -> Bool {
        eventually(timeout: timeout) { errors.contains(BackgroundCommand.watching) }
    }

    /// What `previewctl watch` prints on its standard error once subscribed.
    public static let watching = "watching previewd's events"

    /// Stops it with `signal` (SIGINT unless said) and returns its exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGINT) -> Int32 {
        child.signal(signal)
        return child.wait(timeout: 10)
    }
}
