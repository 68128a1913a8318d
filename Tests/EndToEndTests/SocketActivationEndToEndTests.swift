import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Socket activation as systemd does it (`previewd.socket`), with Debian's `systemd-socket-activate`
/// standing in for systemd: it makes the socket and starts previewd on the first connection.
final class SocketActivationEndToEndTests: DaemonTestCase {
    func testTheFirstPreviewctlStartsPreviewdOnTheSocketSystemdMade() throws {
        guard let activate = ProcessRunner.which("systemd-socket-activate") else {
            throw XCTSkip("systemd-socket-activate not installed (Debian's systemd package; scripts/test installs it)")
        }
        let sink = try PulseNullSink()
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name)
        let folder = NSTemporaryDirectory() + "previewd-activation-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/previewd.sock"
        let previewd = try XCTUnwrap(BuildProducts.path("previewd"))
        let previewctl = try XCTUnwrap(BuildProducts.path("previewctl"))
        // systemd-socket-activate starts previewd with an empty environment but for what -E names:
        // the PulseAudio server a private test server is reached through must be passed on.
        let passOn = ProcessInfo.processInfo.environment["PULSE_SERVER"] == nil ? [] : ["-E", "PULSE_SERVER"]
        let activator = try ChildProcess(activate, ["-l", socket] + passOn + [previewd, "--api-base", standIn.baseURL, "--sink", sink.name],
                                         captureStderr: true)
        let log = DataCollector(activator.stderr!)
        defer { if activator.isRunning { activator.signal(SIGKILL); _ = activator.wait(timeout: 5) } }
        XCTAssertTrue(eventually(timeout: 10) { FileManager.default.fileExists(atPath: socket) }, "systemd-socket-activate made no socket")

        let status = try ProcessRunner.run(previewctl, ["--socket", socket, "--json", "status"])
        XCTAssertEqual(status.status, 0, "the first connection starts previewd, which answers it: \(status.stderr)")
        XCTAssertEqual(try JSONDecoder().decode(StatusReport.self, from: Data(status.stdout.utf8)).state, .idle)
        let mark = recorder.sampleCount
        XCTAssertEqual(try ProcessRunner.run(previewctl, ["--socket", socket, "search", "sine waves"]).status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark), "heard \(recorder.toneSequence(after: mark))")

        activator.signal(SIGTERM)   // systemd-socket-activate became previewd (exec)
        XCTAssertEqual(activator.wait(timeout: 20), 0)
        let said = String(decoding: log.snapshot(), as: UTF8.self)
        XCTAssertTrue(said.contains("(socket activation)"), said)
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket), "the socket is systemd's: previewd leaves it")
    }
}
