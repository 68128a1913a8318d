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
        for command in [["search", "--limit", "0", "x"], ["search", "--limit", "500", "x"], ["play", "--", "-1"], ["fly"]] {
            let result = try previewctl(["--socket", "/nonexistent/previewd.sock"] + command)
            XCTAssertEqual(result.status, 64, "\(command): \(result.stderr)")
        }
    }

    func testVersionAndHelp() throws {
        let version = try previewctl(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertFalse(version.stdout.isEmpty)
        let help = try previewctl(["search", "--help"])
        XCTAssertTrue(help.stdout.contains("jack johnson"), help.stdout)
    }
}
