import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Multi-room through Debian's snapserver: previewd feeds its `tcp` source
/// (`--output snapcast://…`), a snapclient plays the stream into the test's null sink, whose
/// monitor is what the rooms would hear.
final class SnapcastEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (StreamOutputTests run its output in-process)
    private var snapcast: SnapcastServer?

    override func setUpWithError() throws {
        try super.setUpWithError()
        let snapcast = try SnapcastServer()
        self.snapcast = snapcast
        try snapcast.start()
        let sink = try PulseNullSink()
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name)
        try snapcast.addClient(sink: sink.name, pulseServer: nil)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", snapcast.output])
    }

    override func tearDown() {
        super.tearDown()
        snapcast?.stop()
    }

    func testHeardThroughSnapclientNextPauseAndAServerRestart() throws {
        let snapcast = try XCTUnwrap(snapcast)
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result through snapserver and snapclient")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(660, after: mark, "after next")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: mark), "pause did not silence the room")
        XCTAssertEqual(try status().state, .paused)
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        expectTone(660, after: mark, "after resume")

        snapcast.kill()
        let lost = try waitForStatus { $0.output != "ok" }
        XCTAssertTrue(daemon.isRunning)
        XCTAssertEqual(lost.index, 1, "the queue and the track are kept")
        try snapcast.start()
        try snapcast.restartClients()
        let back = try waitForStatus(timeout: 20) { $0.output == "ok" }
        XCTAssertGreaterThanOrEqual(back.positionMs, lost.positionMs, "resumed where the sound stopped")
        mark = recorder.sampleCount
        expectTone(660, after: mark, "heard again once snapserver is back")
        XCTAssertEqual(try status().index, 1)
    }
}
