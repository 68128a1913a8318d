import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The rig every end-to-end test shares: the iTunes stand-in on loopback, and helpers to start
/// previewd on a fresh null sink of the shared PulseAudio server with its monitor recorded.
class DaemonTestCase: XCTestCase {
    var standIn: StandInServer!
    var sink: PulseNullSink?
    var recorder: MonitorRecorder!
    var daemon: DaemonProcess!
    /// The PulseAudio server (or pipewire-pulse) the test's null sink is made on; nil: the shared one
    /// (scripts/test starts it).
    var pulseServer: String?

    override func setUpWithError() throws {
        guard pulseServer != nil || PulseNullSink.serverReachable else {
            if ProcessInfo.processInfo.environment["PREVIEWD_REQUIRE_PULSE"] == "1" {
                throw TestSupportError("no PulseAudio server reachable (scripts/test starts one)")
            }
            throw XCTSkip("no PulseAudio server reachable; run scripts/test")
        }
        standIn = StandInServer(catalogFile: Fixtures.catalog, previewsDirectory: Fixtures.directory.appendingPathComponent("previews"))
        try standIn.start()
    }

    /// previewd (with `arguments` besides the stand-in and the sink) on a fresh null sink of the
    /// shared server (or `pulseServer`), its monitor recorded.
    func startOnSharedServer(_ arguments: [String] = [], environment: [String: String]? = nil, launcher: [String] = []) throws {
        let sink = try PulseNullSink(server: pulseServer)
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name, server: pulseServer)
        daemon = try DaemonProcess(arguments: daemonArguments(arguments), environment: environment, launcher: launcher)
    }

    /// previewd's arguments on this test's stand-in and sink, and `extra`.
    func daemonArguments(_ extra: [String] = []) -> [String] {
        ["--api-base", standIn.baseURL, "--sink", sink?.name ?? "none"] + (pulseServer.map { ["--pulse-server", $0] } ?? []) + extra
    }

    override func tearDown() {
        if let daemon {
            XCTAssertEqual(daemon.stop(), 0, "previewd should end cleanly on SIGTERM; it logged:\n\(daemon.log)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socketPath), "the socket must be removed on exit")
        }
        recorder?.stop()
        sink?.remove()
        standIn?.stop()
    }

    /// Fails the test unless `hz` is heard after sample `mark`, saying what was heard instead.
    func expectTone(_ hz: Double, after mark: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotNil(recorder.waitForTone(hz, after: mark), "\(what): \(Int(hz)) Hz not heard; heard \(recorder.toneSequence(after: mark))",
                        file: file, line: line)
    }

    /// `previewctl --json queue`, decoded.
    func queue() throws -> QueueReport {
        try JSONDecoder().decode(QueueReport.self, from: Data(try daemon.ctl("--json", "queue").stdout.utf8))
    }

    /// `previewctl --json info INDEX`, decoded.
    func info(_ index: Int) throws -> InfoReport {
        try JSONDecoder().decode(InfoReport.self, from: Data(try daemon.ctl("--json", "info", String(index)).stdout.utf8))
    }

    /// `previewctl --json status`, decoded.
    func status() throws -> StatusReport {
        let result = try daemon.ctl("--json", "status")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(StatusReport.self, from: Data(result.stdout.utf8))
    }
}

/// The tests whose every case runs previewd on a fresh null sink of the shared server.
class SharedServerTestCase: DaemonTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try startOnSharedServer()
    }
}
