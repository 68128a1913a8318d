import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// previewd as a user runs it: a real process, the iTunes stand-in over HTTP on loopback, real FFmpeg,
/// and a PulseAudio null sink whose monitor is recorded to check which tone is heard.
final class PlaybackEndToEndTests: SharedServerTestCase {
    func testSearchPlaysAndNextPauseResumePrevSteerIt() throws {
        try checkSearchNextPauseResumePrev()
    }

    func testSeekMovesWithinTheTrackAndPastTheEndGoesToTheNext() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result")
        // Where a seek lands, against positions read in this test: the position grows by no more
        // than the time that passes (a second's slack for what the output holds ahead).
        let beforeSeek = try status().positionMs
        var sent = Date()
        let seek = try daemon.ctl("--json", "seek", "6.5")
        XCTAssertEqual(seek.status, 0, seek.stderr)
        expectTone(440, after: recorder.sampleCount, "after seek")
        var report = try status()
        var elapsed = millisecondsSince(sent)
        XCTAssertEqual(report.index, 0)
        XCTAssertGreaterThanOrEqual(report.positionMs, 6_500, "seek 6.5 from \(beforeSeek) ms")
        XCTAssertLessThan(report.positionMs, 6_500 + elapsed + 1_000, "seek 6.5: at 6.5 s, plus what played in the \(elapsed) ms since")

        sent = Date()
        let p = try status().positionMs
        XCTAssertEqual(try daemon.ctl("seek", "-5").status, 0)
        report = try status()
        elapsed = millisecondsSince(sent)
        XCTAssertLessThan(report.positionMs, p - 5_000 + elapsed + 1_000, "seek -5 from \(p) ms, \(elapsed) ms ago")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("seek", "+30").status, 0)
        expectTone(660, after: mark, "seeking past the end plays the next track")
        XCTAssertEqual(try status().index, 1)

        let bad = try daemon.ctl("seek", "banana")
        XCTAssertEqual(bad.status, 2, "bad usage")
    }

    func testQueueAdvancesAtTheEndAndStopsAfterTheLast() throws {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)   // two 2-second tones
        let first = recorder.waitForTone(770, after: mark)
        XCTAssertNotNil(first)
        let second = recorder.waitForTone(990, after: first ?? mark)
        XCTAssertNotNil(second, "did not advance to the next track; heard \(recorder.toneSequence(after: mark))")
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: second ?? mark))
        let report = try waitForStatus { $0.state == .stopped }
        XCTAssertEqual(report.state, .stopped)
        XCTAssertEqual(report.index, 1)
    }

    /// The queue's last track is heard to its last sample: at the end the sound server plays what it
    /// holds before the stream rests (the second of two gapless 2 s tones: 2 s of 990 Hz, not cut).
    func testTheLastTrackIsHeardToItsLastSample() throws {
        // A stream of silence keeps the sink running, so its monitor records the end and the silence
        // after it as they come (an idle null sink's monitor records nothing).
        let pacat = try XCTUnwrap(ProcessRunner.which("pacat"), "pacat (pulseaudio-utils)")
        let silence = try ChildProcess(pacat, (pulseServer.map { ["--server", $0] } ?? []) + ["-d", try XCTUnwrap(sink).name,
                                       "--raw", "--format=s16le", "--channels=1", "--rate=48000", "/dev/zero"])
        defer { silence.signal(SIGTERM); _ = silence.wait(timeout: 5) }
        XCTAssertNotNil(recorder.waitFor(after: 0) { _, _, _ in true }, "the sink records silence")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)
        let second = try XCTUnwrap(recorder.waitForTone(990, after: mark), "heard \(recorder.toneSequence(after: mark))")
        let end = try XCTUnwrap(recorder.waitForSilence(lasting: 0.5, after: second))
        let heard = recorder.samples(in: mark..<end + recorder.window)
        let last = try XCTUnwrap(heard.lastIndex { abs($0) > 0.01 })
        // Where 990 Hz begins, to a period: the first rising zero crossing after which the periods are
        // 990 Hz's (48.5 samples at 48 kHz; 770 Hz's are 62.3). The start of the first tone is no
        // mark: the monitor misses what the server mixes into a stream's first milliseconds by rewinding.
        let rising = (1...last).filter { heard[$0 - 1] < 0 && heard[$0] >= 0 }
        let join = try XCTUnwrap(zip(rising, rising.dropFirst()).first { $1 - $0 < 56 }?.0, "no 990 Hz period")
        XCTAssertGreaterThanOrEqual(Double(last + 1 - join) / Double(recorder.sampleRate), 1.995,
                                    "990 Hz heard for its whole 2 s, to its last sample")
    }

    /// Previews whose frames change shape mid-stream (MP3: stereo → mono → 48 kHz stereo, about
    /// 6.1 s at 1250 Hz; AAC: mono → stereo, 4 s at 1400 Hz) are heard whole at their pitch, one
    /// after the other, and previewd stays up.
    func testStreamsThatChangeShapePlayWholeAtTheirPitch() throws {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "shape shifters").status, 0)
        let mp3 = try XCTUnwrap(recorder.waitForTone(1250, after: mark), "the MP3 preview")
        let aac = try XCTUnwrap(recorder.waitForTone(1400, after: mp3), "the AAC preview after it")
        let end = try XCTUnwrap(recorder.waitForSilence(lasting: 0.5, after: aac), "the queue ends")
        XCTAssertEqual(recorder.toneSequence(after: mark), [1250, 1400], "each at its own pitch, nothing else")
        let rate = Double(recorder.sampleRate)
        XCTAssertEqual(Double(aac - mp3) / rate, 6.1, accuracy: 0.4, "the MP3 preview is heard whole")
        XCTAssertEqual(Double(end - aac) / rate, 4.0, accuracy: 0.4, "the AAC preview is heard whole")
        XCTAssertTrue(daemon.isRunning)
        XCTAssertTrue(try queue().items.allSatisfy { $0.failure == nil })
    }

    func testBrokenPreviewIsMarkedFailedAndTheNextPlays() throws {
        // "Square Roots": no preview (shown, not queued), then a 404 preview, then a good one (660 Hz).
        let mark = recorder.sampleCount
        let search = try daemon.ctl("search", "square roots")
        XCTAssertEqual(search.status, 0)
        XCTAssertTrue(search.stdout.contains("not queued: Silent Demo (no preview) — no preview"), search.stdout)
        XCTAssertTrue(search.stdout.contains("2 of 3 results queued"), search.stdout)
        expectTone(660, after: mark, "the good track after the broken one")
        let queue = try daemon.ctl("--json", "queue")
        let report = try JSONDecoder().decode(QueueReport.self, from: Data(queue.stdout.utf8))
        XCTAssertEqual(report.index, 1)
        XCTAssertEqual(report.items.count, 2)
        XCTAssertTrue(report.items[0].failure?.contains("404") ?? false, "\(String(describing: report.items[0].failure))")
        let human = try daemon.ctl("queue").stdout
        XCTAssertTrue(human.contains("✗"), human)
        XCTAssertTrue(daemon.isRunning)
    }

    func testUndecodablePreviewIsSkippedWithFFmpegsReason() throws {
        // The first preview answers 200 with an HTML page: a decode error, not an HTTP one.
        standIn.setFault(.html, forPathPrefix: "/previews/tone-440")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(660, after: mark, "the next track after the undecodable one")
        XCTAssertFalse(recorder.toneSequence(after: mark).contains(440), "nothing of the broken one is heard")
        let queue = try JSONDecoder().decode(QueueReport.self, from: Data(try daemon.ctl("--json", "queue").stdout.utf8))
        let failure = try XCTUnwrap(queue.items[0].failure)
        XCTAssertTrue(failure.contains("not a playable preview"), failure)
        XCTAssertEqual(queue.index, 1)
    }

    func testASlowServerShowsBufferingAndPlaybackGoesOnWhenDataComes() throws {
        // 5 KB/s for a 64 kbit/s preview: the output outruns the download.
        standIn.setFault(.throttle(bytesPerSecond: 5_000), forPathPrefix: "/previews/tone-440")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark, timeout: 30))
        try waitForStatus(timeout: 20, "status never showed buffering") { $0.buffering && $0.state == .playing && $0.index == 0 }
        let later = recorder.sampleCount
        XCTAssertNotNil(recorder.waitForTone(440, after: later, timeout: 30), "playback did not go on when data came")
        XCTAssertEqual(try status().index, 0)
    }

    func testNoResultsAndCatalogDownAreClearErrorsAndLoseNothing() throws {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result")

        let none = try daemon.ctl("search", "no such thing anywhere")
        XCTAssertEqual(none.status, 5, "no results has its own exit status")
        XCTAssertTrue(none.stderr.contains("no results"), none.stderr)
        var report = try status()
        XCTAssertEqual(report.queueLength, 7, "a search with no results keeps the queue")
        XCTAssertEqual(report.state, .playing)

        standIn.setFault(.status(503), forPathPrefix: "/search")
        let unavailable = try daemon.ctl("--json", "search", "sine")
        XCTAssertEqual(unavailable.status, 8, "an HTTP error status has its own exit status")
        XCTAssertTrue(unavailable.stdout.contains("\"http-status\""), unavailable.stdout)

        standIn.stop()
        let down = try daemon.ctl("search", "sine", "--limit", "3")
        XCTAssertEqual(down.status, 6, "offline has its own exit status")
        XCTAssertTrue(down.stderr.contains("offline: the iTunes API (127.0.0.1:") && down.stderr.contains("does not answer (connection refused)"), down.stderr)
        report = try status()
        XCTAssertEqual(report.queueLength, 7)
        XCTAssertTrue(daemon.isRunning)
    }

    func testASecondDaemonOnTheSameSocketRefusesToStart() throws {
        guard let binary = BuildProducts.path("previewd") else { return XCTFail("previewd not built") }
        let second = try ProcessRunner.run(binary, ["--socket", daemon.socketPath, "--api-base", standIn.baseURL], timeout: 20)
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("already running"), second.stderr)
        XCTAssertFalse(second.stderr.contains("output pulse"), "it finds the socket taken before it connects to PulseAudio: \(second.stderr)")
        XCTAssertEqual(try daemon.ctl("status").status, 0, "the first daemon is untouched")
    }
}
