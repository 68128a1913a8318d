import Foundation
import PreviewTestSupport
import XCTest

/// previewctl on its own: what a user sees when previewd is not there or the input is wrong.
final class PreviewctlTests: XCTestCase {
    private func previewctl(_ arguments: [String]) throws -> ProcessRunner.Result {
        guard let binary = BuildProducts.path("previewctl") else { throw TestSupportError("previewctl not built") }
        return try ProcessRunner.run(binary, arguments)
    }

    func testNoDaemonIsExitStatus3WithAClearMessage() throws {
        let path = NSTemporaryDirectory() + "no-previewd-\(getpid())/previewd.sock"
        // The forms previewctl reads (seek's, volume's, --at's) get as far as asking previewd.
        let typed = [["seek", "12"], ["seek", "0:12.5"], ["seek", "1:05"], ["seek", "+5"], ["seek", "-2.5"],
                     ["volume", "40"], ["volume", "+5"], ["volume", "-5"], ["add", "x", "--at", "next"], ["add", "--ids", "1,2", "--at", "0"],
                     ["consume", "on"], ["single", "oneshot"], ["crossfade", "3"], ["crossfade"], ["queue", "--since", "3"], ["search", "x", "--no-queue"]]
        for command in [["status"], ["next"], ["--json", "queue"], ["search", "x"]] + typed {
            let result = try previewctl(["--socket", path] + command)
            XCTAssertEqual(result.status, 3, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot reach previewd"), result.stderr)
            XCTAssertTrue(result.stdout.isEmpty)
        }
    }

    func testUsageErrorsAreCaughtBeforeAnythingIsSent() throws {
        for command in [["search", "--limit", "0", "x"], ["search", "--limit", "500", "x"], ["play", "--", "-1"], ["fly"],
                        ["search"], ["search", "--media", "vinyl", "x"], ["search", "x", "--desc"], ["lookup", "12,abc"],
                        ["top", "--limit", "300"], ["remove"], ["move", "1"], ["info", "--", "-2"], ["volume", "101"],
                        ["add", "--ids", "12,abc"], ["add", "x", "--at", "later"], ["single", "twice"], ["crossfade", "16"], ["crossfade", "2.5"], ["queue", "--since", "-1"]]
                        + ["", "x", "1:60", "-1:-2", "nan", "inf", "1:2:3", "+", "99999999"].map { ["seek", "--", $0] } {
            let result = try previewctl(["--socket", "/nonexistent/previewd.sock"] + command)
            XCTAssertEqual(result.status, 2, "\(command): \(result.stderr)")
        }
    }

    /// The plain commands are read by previewctl's fast path; a trailing `--` sends the same words
    /// through ArgumentParser. Both must ask previewd the same and print the same.
    func testTheFastPathAndArgumentParserAgree() throws {
        let daemon = try DaemonProcess(arguments: ["--api-base", "http://127.0.0.1:9"])
        defer { XCTAssertEqual(daemon.stop(), 0) }
        for word in ["status", "queue", "next", "prev", "pause", "resume", "toggle", "stop", "clear", "share"] {
            for flags in [[], ["--json"]] {
                let fast = try daemon.ctl(flags + [word])
                let parsed = try daemon.ctl(flags + [word, "--"])
                XCTAssertEqual(fast.status, parsed.status, "\(flags) \(word)")
                XCTAssertEqual(fast.stdout, parsed.stdout, "\(flags) \(word)")
                XCTAssertEqual(fast.stderr, parsed.stderr, "\(flags) \(word)")
            }
        }
        let unreachable = ["--socket", "/nonexistent/previewd.sock", "status"]
        XCTAssertEqual(try previewctl(unreachable).status, 3)
        XCTAssertEqual(try previewctl(unreachable + ["--"]).status, 3)
        XCTAssertEqual(try previewctl(["--version"]).stdout, try previewctl(["--version", "--"]).stdout)
    }

    /// A socket in a folder others may write to is not spoken to: whoever wrote it could read the
    /// requests. Nothing is sent to the listener.
    func testASocketInAFolderOthersMayWriteToIsRefused() throws {
        let folder = NSTemporaryDirectory() + "previewd-open-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o777)
        let listener = try PlantedSocket(path: folder + "/previewd.sock")
        let result = try previewctl(["--socket", folder + "/previewd.sock", "status"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("is not safe: others may write to it"), result.stderr)
        XCTAssertEqual(listener.bytesReceived(), 0, "not a byte for a socket previewctl does not trust")
    }

    /// A socket served by another user's previewd (in a shared sticky folder, as /tmp is) is refused
    /// before a byte is written: previewctl checks the listener's uid (SO_PEERCRED). Arranged by
    /// running previewd as nobody, which needs root; elsewhere the test says so and is skipped.
    func testASocketServedByAnotherUserIsRefused() throws {
        guard getuid() == 0, let setpriv = ProcessRunner.which("setpriv"), let previewd = BuildProducts.path("previewd") else {
            throw XCTSkip("needs root and setpriv to run a previewd as another user")
        }
        let folder = NSTemporaryDirectory() + "previewd-shared-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o1777)
        let socketPath = folder + "/previewd.sock"
        let other = try ChildProcess(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", previewd,
                                               "--socket", socketPath, "--api-base", "http://127.0.0.1:9"])
        defer { other.signal(SIGTERM); _ = other.wait(timeout: 10) }
        XCTAssertTrue(eventually(timeout: 20) { FileManager.default.fileExists(atPath: socketPath) || !other.isRunning })
        var info = stat()
        XCTAssertEqual(stat(socketPath, &info), 0)
        XCTAssertEqual(info.st_uid, 65534, "the socket is the other user's")
        let result = try previewctl(["--socket", socketPath, "next"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("runs as uid 65534, not as you"), result.stderr)
    }

    func testVersionAndHelp() throws {
        let version = try previewctl(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertFalse(version.stdout.isEmpty)
        let help = try previewctl(["search", "--help"])
        XCTAssertTrue(help.stdout.contains("jack johnson"), help.stdout)
        for command in ["search", "lookup", "top", "more", "add", "play", "pause", "resume", "toggle", "stop", "next", "prev",
                        "seek", "volume", "mute", "output", "normalize", "repeat", "shuffle", "status", "queue", "info", "share", "watch", "clear",
                        "remove", "move"] {
            let help = try previewctl([command, "--help"])
            XCTAssertEqual(help.status, 0, command)
            XCTAssertTrue(help.stdout.contains("USAGE: previewctl \(command)"), "\(command): \(help.stdout)")
        }
        for shell in ["bash", "zsh", "fish"] {
            let script = try previewctl(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, shell)
            XCTAssertTrue(script.stdout.contains("lookup"), shell)
        }
    }
}

/// A listening Unix socket that counts what it is sent, standing in for a socket someone planted.
private final class PlantedSocket {
    private let fd: Int32
    private let path: String

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw TestSupportError("cannot listen on \(path)") }
    }

    deinit { close(fd); unlink(path) }

    /// Bytes sent by a client that connected (0 when none connected or it sent nothing).
    func bytesReceived() -> Int {
        guard fcntl(fd, F_SETFL, O_NONBLOCK) == 0 else { return -1 }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return 0 }
        defer { close(client) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return max(0, n)
    }
}
