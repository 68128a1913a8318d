import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// An outage as a listener lives it, heard on the null sink's monitor: six short previews queued,
/// the servers go away mid-queue and come back. What previewd held plays, playback then waits at
/// the track the outage reached (no track marked failed, "waiting for the network" in status and
/// MPD's status), and that track and the next are heard once the servers answer, with no command.
/// A track that failed for good plays when asked for by number.
final class OutageEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, real time only (its time is the outage's; NetworkHoldTests, PlayerCoreHoldTests run the hold in-process)
    func testPlaybackHoldsThroughAnOutageAndGoesOnWhenTheServersAnswer() throws {
        // No heads: only what the window prefetches is held, as in the run.
        let (mpdSocket, _) = try startServingMPD(["--prefetch-heads", "0"])
        let port = UInt16(standIn.baseURL.split(separator: ":").last!)!
        standIn.setFault(.status(404), forPathPrefix: "/previews/tone-880")   // fails for good: asked for later
        let start = recorder.sampleCount
        // 770 and 990 Hz (3 s each), then 440, 660, 880, 1100 (8 s each).
        XCTAssertEqual(try daemon.ctl("add", "--ids", "3001,3002,1001,1002,1003,1004").status, 0)
        XCTAssertEqual(try daemon.ctl("play", "0").status, 0)
        expectTone(770, after: start, "the first track")

        standIn.stop()                                   // the outage: nothing answers
        let away = Date()
        let held = try waitForStatus(timeout: 20, "playback waits at the track the outage reached") { $0.waiting != nil }
        let waiting = try XCTUnwrap(held.waiting)
        XCTAssertEqual(waiting.index, 2, "the first track not held: 440 Hz")
        XCTAssertEqual(held.state, .loading)
        XCTAssertTrue(waiting.outage)
        XCTAssertEqual(waiting.message, "waiting for the network: the preview server (127.0.0.1:\(port)) does not answer (connection refused)")
        XCTAssertEqual(held.error, waiting.message)
        XCTAssertEqual(recorder.toneSequence(after: start).filter { $0 != 770 && $0 != 990 }, [], "nothing skipped ahead")
        XCTAssertTrue(recorder.toneSequence(after: start).contains(990), "the held second track played")
        XCTAssertTrue(try queue().items.allSatisfy { $0.failure == nil }, "no track marked failed")

        let human = try daemon.ctl("status").stdout
        XCTAssertTrue(human.contains("waiting for the network: the preview server (127.0.0.1:\(port)) does not answer since 0:"), human)
        let mpd = try MPDRawClient(path: mpdSocket)
        let mpdStatus = try XCTUnwrap(mpd.ask("status"))
        XCTAssertTrue(mpdStatus.contains("state: play"), "MPD shows a stream that buffers: \(mpdStatus)")
        XCTAssertTrue(mpdStatus.contains("error: " + waiting.message), "\(mpdStatus)")
        XCTAssertEqual(try daemon.ctl("retry").status, 0, "retry tries now, and the wait goes on")

        // The wait's timer tries again (0.5, 1, 1.5, 1.5… s apart): wait for a few tries, not a time.
        try waitForStatus(timeout: 20, "the hold keeps trying") { ($0.waiting?.tries ?? 0) >= 6 }
        let silent = recorder.sampleCount
        XCTAssertTrue(try queue().items.allSatisfy { $0.failure == nil }, "still no track marked failed")

        try standIn.start(port: port)                    // the servers answer again
        let back = recorder.sampleCount
        let backAt = Date()
        expectTone(440, after: back, "the track the outage reached, with no command")
        let heardAfterMs = millisecondsSince(backAt)
        expectTone(660, after: back, "the next one")
        let size = recorder.sampleRate / 100
        XCTAssertEqual(recorder.silentWindows(from: silent, to: back, size: size), Array(stride(from: silent, to: back - size, by: size)),
                       "silence while waiting: nothing skipped ahead")
        XCTAssertNil(try status().waiting)
        print("outage: away \(Int(backAt.timeIntervalSince(away) * 1000)) ms; 440 Hz heard \(heardAfterMs) ms after the servers answered")

        // 880 Hz fails for good (404) when prefetched; asked for by number it is tried anew.
        try waitFor("the 404 track is marked failed") { try self.queue().items[4].failure != nil }
        let failure = try XCTUnwrap(try queue().items[4].failure)
        XCTAssertTrue(failure.contains("HTTP 404"), failure)
        standIn.setFault(nil, forPathPrefix: "/previews/tone-880")
        let asked = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("play", "4").status, 0, "the command was taken")
        expectTone(880, after: asked, "play N on a failed track")
        let queue = try queue()
        XCTAssertEqual(queue.items.count, 6, "the queue is whole")
        XCTAssertTrue(queue.items.allSatisfy { $0.failure == nil })
    }
}
