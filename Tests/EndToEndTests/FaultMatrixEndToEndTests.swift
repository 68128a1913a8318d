import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The fast part of the fault matrix (scripts/soak runs the long one). Each case: previewd stays
/// up and answers, the error is reported, good tracks go on playing, nothing plays that should not.
final class FaultMatrixEndToEndTests: DaemonTestCase {
    func testPreviewServerFaultsFailOnlyThatTrack() throws {
        try startOnSharedServer()
        let faults: [(StandInFault, String)] = [
            (.status(500), "HTTP 500"), (.status(403), "HTTP 403"), (.status(429), "HTTP 429"),
            (.redirect(to: "/previews/tone-440.m4a"), "redirect"),
            (.body(Array("#EXTM3U\n".utf8), contentType: "audio/mp4"), "not a playable preview"),
            (.body([], contentType: "audio/mp4"), "not a playable preview"),
        ]
        for (fault, reason) in faults {
            standIn.setFault(fault, forPathPrefix: "/previews/tone-440")
            // The previous case's 660 Hz must not stand for this one's: stopped, and nothing more of
            // it arrives.
            let stopping = recorder.sampleCount
            XCTAssertEqual(try daemon.ctl("stop").status, 0)
            try waitForStatus("\(fault): stopped") { [.stopped, .idle].contains($0.state) }
            XCTAssertNotNil(recorder.waitUntilQuiet(after: stopping), "\(fault): sound went on after stop: \(recorder.levels(after: stopping))")
            let mark = recorder.sampleCount
            XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
            XCTAssertNotNil(recorder.waitForTone(660, after: mark), "\(fault): the next track; heard \(recorder.toneSequence(after: mark))")
            XCTAssertFalse(recorder.toneSequence(after: mark).contains(440), "\(fault): nothing of the broken one is heard")
            let failure = try XCTUnwrap(try queue().items[0].failure, "\(fault)")
            XCTAssertTrue(failure.contains(reason), "\(fault): \(failure)")
            XCTAssertTrue(daemon.isRunning)
        }
    }

    func testSlowFirstByteAndDroppedConnectionStillPlay() throws {
        try startOnSharedServer()
        standIn.setFault(.delay(milliseconds: 2000), forPathPrefix: "/previews/tone-440")
        standIn.setFault(.dropAfter(bytes: 20_000), forPathPrefix: "/previews/tone-660")   // fires once, on the prefetch
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertEqual(try status().state, .loading, "waiting for the first byte is loading, not an error")
        XCTAssertNotNil(recorder.waitForTone(440, after: mark), "2 s before the first byte, then it plays")
        standIn.setFault(nil, forPathPrefix: "/previews/tone-440")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("play", "1").status, 0)
        XCTAssertNotNil(recorder.waitForTone(660, after: mark))
        XCTAssertTrue(standIn.waitForRequest { $0.contains("/previews/tone-660") && $0.contains("range=bytes=20000-") },
                      "the dropped download is resumed with a Range request: \(standIn.requestLog)")
        XCTAssertNil(try queue().items[1].failure)
    }

    /// A server that trickles a preview (500 bytes a second) cannot hold its slot: the download
    /// fails at its deadline (`--preview-timeout`), the track is marked with why, the next one plays.
    func testATricklingPreviewFailsAtItsDeadlineAndTheNextPlays() throws {
        let sink = try PulseNullSink()
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", sink.name, "--preview-timeout", "2"])
        standIn.setFault(.throttle(bytesPerSecond: 500), forPathPrefix: "/previews/tone-440")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(660, after: mark, "the next track, once the trickling one gave up")
        let failure = try XCTUnwrap(try queue().items[0].failure)
        XCTAssertTrue(failure.contains("took longer than 2 s"), failure)
        XCTAssertFalse(recorder.toneSequence(after: mark).contains(440), "nothing of the trickling one is heard")
    }

    func testPulseAudioAbsentAtStartThenAppears() throws {
        let server = try PulseServer()
        defer { server.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server.address
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", server.sinkName], environment: environment)
        let search = try daemon.ctl("search", "sine waves")
        XCTAssertEqual(search.status, 0, search.stderr)
        var report = try status()
        XCTAssertNotEqual(report.output, "ok", "the missing server is reported")
        XCTAssertEqual(report.queueLength, 7, "the queue is kept")
        try server.start()
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0, timeout: 20), "plays once the server appears, without a command")
        report = try status()
        XCTAssertEqual(report.output, "ok")
    }

    func testTheSinkRemovedMidTrack() throws {
        try startOnSharedServer()
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0))
        let playedTo = try status().positionMs
        recorder.stop()
        sink?.remove()
        sink = nil
        // Moved to another sink by the server (it goes on playing there), or lost and retrying (it
        // says so): either way previewd has taken the sink's going in, and answers.
        let report = try waitForStatus("the sink's removal is taken in") { $0.output != "ok" || $0.positionMs >= playedTo + 500 }
        XCTAssertTrue(daemon.isRunning)
        XCTAssertEqual(report.queueLength, 7)
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        XCTAssertEqual(try status().index, 1)
        XCTAssertTrue(daemon.isRunning)
    }
}
