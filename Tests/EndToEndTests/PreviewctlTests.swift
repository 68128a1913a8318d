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
        for command in [["status"], ["next"], ["--json", "queue"], ["search", "x"]] {
            let result = try previewctl(["--socket", path] + command)
            XCTAssertEqual(result.status, 3, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot reach previewd"), result.stderr)
            XCTAssertTrue(result.stdout.isEmpty)
        }
    }

    func testUsageErrorsAreCaughtBeforeAnythingIsSent() throws {
        for command in [["search", "--limit", "0", "x"], ["search", "--limit", "500", "x"], ["play", "--", "-1"], ["fly"],
                        ["search"], ["search", "--media", "vinyl", "x"], ["search", "x", "--desc"], ["lookup", "12,abc"],
                        ["top", "--limit", "300"], ["remove"], ["move", "1"], ["info", "--", "-2"], ["volume", "101"]] {
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

    func testVersionAndHelp() throws {
        let version = try previewctl(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertFalse(version.stdout.isEmpty)
        let help = try previewctl(["search", "--help"])
        XCTAssertTrue(help.stdout.contains("jack johnson"), help.stdout)
        for command in ["search", "lookup", "top", "more", "add", "play", "pause", "resume", "toggle", "stop", "next", "prev",
                        "seek", "volume", "mute", "repeat", "shuffle", "status", "queue", "info", "share", "watch", "clear",
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
