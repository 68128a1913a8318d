import Foundation
import PreviewTestSupport
import XCTest

/// scripts/install into a DESTDIR, as a packager runs it.
final class InstallTests: XCTestCase {
    private let files = ["bin/previewd", "bin/previewctl", "share/man/man1/previewd.1", "share/man/man1/previewctl.1",
                         "share/bash-completion/completions/previewctl", "share/zsh/site-functions/_previewctl",
                         "share/fish/vendor_completions.d/previewctl.fish", "lib/systemd/user/previewd.service",
                         "lib/systemd/user/previewd.socket", "share/applications/previewd.desktop"]

    /// scripts/install with the binaries the tests run (it would otherwise build them: `swift build`
    /// cannot run while `swift test` holds the build folder).
    private func install(_ destination: String, _ arguments: [String] = []) throws -> ProcessRunner.Result {
        let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = destination
        return try ProcessRunner.run("/bin/bash", [root + "/scripts/install", "--prefix", "/usr", "--bin-dir", BuildProducts.directory.path]
                                     + arguments, environment: environment, timeout: 120)
    }

    func testInstallsEveryFileWorkingAndUninstallsExactlyThose() throws {
        guard BuildProducts.path("generate-manual") != nil else {
            throw XCTSkip("no generate-manual beside the binaries under test: scripts/test builds it beside the release build; the sanitizer pass's build has none, and installing is no sanitizer's business")
        }
        let destination = NSTemporaryDirectory() + "previewd-install-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let first = try install(destination)
        XCTAssertEqual(first.status, 0, first.stderr)
        let again = try install(destination)
        XCTAssertEqual(again.status, 0, "running it twice is harmless: \(again.stderr)")
        let prefix = destination + "/usr/"
        for file in files { XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + file), file) }

        let version = try ProcessRunner.run(prefix + "bin/previewctl", ["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertFalse(version.stdout.isEmpty)

        let environment = ["MANWIDTH": "100", "PATH": "/usr/bin:/bin"]
        let ctlPage = try ProcessRunner.run("/usr/bin/man", ["-l", prefix + "share/man/man1/previewctl.1"], environment: environment)
        XCTAssertEqual(ctlPage.status, 0)
        XCTAssertEqual(ctlPage.stderr, "", "renders cleanly")
        for command in ["search", "lookup", "top", "play", "pause", "next", "prev", "seek", "volume", "status", "queue",
                        "info", "watch", "Exit status", "Files:", "Environment:", "Examples:"] {
            XCTAssertTrue(ctlPage.stdout.contains(command), "previewctl(1) lacks \(command)")
        }
        let daemonPage = try ProcessRunner.run("/usr/bin/man", ["-l", prefix + "share/man/man1/previewd.1"], environment: environment)
        XCTAssertEqual(daemonPage.stderr, "", "renders cleanly")
        for option in ["--socket", "--normalize", "--on-event", "--cache-dir", "LISTEN_FDS", "PREVIEWD_TITLE", "Exit status"] {
            XCTAssertTrue(daemonPage.stdout.contains(option), "previewd(1) lacks \(option)")
        }

        let completion = try ProcessRunner.run("/bin/bash", ["-c", "source \(prefix)share/bash-completion/completions/previewctl && complete -p previewctl"])
        XCTAssertEqual(completion.status, 0, completion.stderr)
        XCTAssertTrue(completion.stdout.contains("previewctl"), completion.stdout)
        let service = try String(contentsOfFile: prefix + "lib/systemd/user/previewd.service", encoding: .utf8)
        XCTAssertTrue(service.contains("ExecStart=/usr/bin/previewd"), "the unit names the prefix, not DESTDIR: \(service)")
        XCTAssertTrue(try String(contentsOfFile: prefix + "share/applications/previewd.desktop", encoding: .utf8).contains("NoDisplay=true"))

        let removed = try install(destination, ["--uninstall"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        let left = FileManager.default.enumerator(atPath: destination)?.compactMap { $0 as? String }
            .filter { !FileManager.default.isDirectory(destination + "/" + $0) } ?? []
        XCTAssertEqual(left, [], "uninstall removes exactly what install put there")
    }
}

private extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
