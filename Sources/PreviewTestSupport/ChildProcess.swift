import Foundation
import Glibc

/// A child process started with posix_spawn and reaped with waitpid on its own pid. (Foundation's
/// Process on Linux can miss a child's exit when several end at once, and then waits forever.)
public final class ChildProcess {
    /// The child's pid.
    public let pid: pid_t
    /// The read end of the child's stdout, when captured.
    public let stdout: FileHandle?
    /// The read end of the child's stderr, when captured.
    public let stderr: FileHandle?
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments`; stdin is /dev/null; stdout and stderr are captured
    /// through pipes when asked, else go to /dev/null.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                captureStdout: Bool = false, captureStderr: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipes: [Int32: [Int32]] = [:]
        for (fd, capture) in [(Int32(1), captureStdout), (Int32(2), captureStderr)] {
            if capture {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw TestSupportError("pipe: \(String(cString: strerror(errno)))") }
                posix_spawn_file_actions_adddup2(&actions, ends[1], fd)
                posix_spawn_file_actions_addclose(&actions, ends[0])
                posix_spawn_file_actions_addclose(&actions, ends[1])
                pipes[fd] = ends
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + env).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, env)
        for ends in pipes.values { close(ends[1]) }
        guard result == 0 else {
            for ends in pipes.values { close(ends[0]) }
            throw TestSupportError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        stdout = pipes[1].map { FileHandle(fileDescriptor: $0[0], closeOnDealloc: true) }
        stderr = pipes[2].map { FileHandle(fileDescriptor: $0[0], closeOnDealloc: true) }
    }

    /// True until the child has exited (and been reaped).
    public var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { exitStatus = Self.decode(status); return false }
        return result == 0
    }

    /// Sends `signal` if the child still runs.
    public func signal(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
    }

    /// Waits for the exit at most `timeout` seconds, times the patience (then SIGKILL); returns the
    /// exit status (128 + signal number when killed by a signal).
    @discardableResult
    public func wait(timeout: TimeInterval) -> Int32 {
        eventually(timeout: timeout, interval: 0.005) { !isRunning }
        if isRunning {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            if waitpid(pid, &status, 0) == pid { exitStatus = Self.decode(status) }
        }
        return exitStatus ?? -1
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
