import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// Radio as heard: with it off, a queue that ends asks the catalog nothing more and fetches no
/// other preview (the stand-in's request log); with it on, the last track joins the first radio
/// track without a gap on the null sink's monitor, and the track says why it came.
final class RadioEndToEndTests: SharedServerTestCase {   // Sanitizer pass: skipped, heard only (RadioTests run the picker in-process; CatalogEndToEndTests the chart and lookups)
    /// The stand-in's catalog requests (not previews or artwork), in order.
    private var catalogRequests: [String] {
        standIn.requestLog.filter { $0.contains("/lookup") || $0.contains("/search") || $0.contains("/rss/") || $0.contains("/api/v2/") }
    }

    private var previewRequests: [String] { standIn.requestLog.filter { $0.contains("/previews/") } }

    func testRadioOffAsksAndFetchesNothingWhenTheQueueEnds() throws {
        XCTAssertFalse(try status().radio, "off by default")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("lookup", "3001").status, 0)   // Brief Seven Seventy, 2 s, alone in the queue
        expectTone(770, after: mark, "the looked-up track")
        try waitForStatus("the queue ended") { $0.state == .stopped }
        XCTAssertEqual(catalogRequests.count, 1, "only the listener's lookup: \(catalogRequests)")
        XCTAssertTrue(catalogRequests.allSatisfy { $0.contains("id=3001") }, "\(catalogRequests)")
        XCTAssertTrue(previewRequests.allSatisfy { $0.contains("tone-770") }, "no other preview fetched: \(previewRequests)")
        XCTAssertEqual(try queue().items.count, 1)
    }

    func testTheLastTrackJoinsTheFirstRadioTrackWithoutAGapAndSaysWhy() throws {
        let on = try daemon.ctl("--json", "radio", "on")
        XCTAssertEqual(on.status, 0, on.stderr)
        XCTAssertTrue(try status().radio)
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("lookup", "3001").status, 0)   // 770 Hz for 2 s by The Sine Waves
        let first = try XCTUnwrap(recorder.waitForTone(770, after: mark))
        // Radio's pick: another song of the artist played (the stand-in's first: 440 Hz).
        let second = try XCTUnwrap(recorder.waitForTone(440, after: first), "heard \(recorder.toneSequence(after: mark)); log:\n\(daemon.log)")
        let gaps = silentWindows(joining: first, second)
        XCTAssertEqual(gaps, [], "silence between the last track and radio's at samples \(gaps.prefix(5)) (\(gaps.count) × 10 ms)")

        let items = try queue().items
        XCTAssertGreaterThan(items.count, 1)
        XCTAssertNil(items[0].reason)
        XCTAssertEqual(items[1].track.trackId, 1001)
        XCTAssertEqual(items[1].reason?.text, "radio: more from The Sine Waves, whose Brief Seven Seventy you played")
        XCTAssertFalse(items.dropFirst().contains { $0.track.trackId == 3001 }, "never a track in the queue")
        try waitForStatus("radio's track current") { $0.index == 1 }
        let report = try status()
        XCTAssertEqual(report.reason, items[1].reason?.text)
        XCTAssertTrue(try daemon.ctl("status").stdout.contains("radio: more from The Sine Waves"), "status shows the reason")
        let artistCalls = catalogRequests.filter { $0.contains("id=501") }
        XCTAssertEqual(artistCalls.count, 1, "one call for the artist's songs: \(catalogRequests)")
        XCTAssertLessThanOrEqual(catalogRequests.count - 1, 2, "at most two calls for the batch: \(catalogRequests)")
    }

    /// A `next` within 10 s of a radio track counts against its lead; radio and the skips come back
    /// after a restart (the state file), the reasons of the queued items do not.
    func testAQuickSkipCountsAgainstItsLeadAndRadioAndTheSkipsSurviveARestart() throws {
        XCTAssertEqual(try daemon.ctl("radio", "on").status, 0)
        XCTAssertEqual(try daemon.ctl("lookup", "3001").status, 0)
        try waitForStatus("radio's track current") { $0.index == 1 && $0.reason != nil }
        XCTAssertEqual(try daemon.ctl("next").status, 0)   // at once: a quick skip
        let skipped = try waitForStatus("the skip counted") { !$0.radioSkips.isEmpty }
        XCTAssertEqual(skipped.radioSkips, ["artist:501": 1])

        let folder = (daemon.socketPath as NSString).deletingLastPathComponent
        XCTAssertEqual(daemon.stop(), 0, daemon.log)
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": folder + "/state", "XDG_DATA_HOME": folder + "/data"]) { $1 }
        daemon = try DaemonProcess(arguments: daemonArguments(), environment: environment)
        waitForLog("state restored")
        let restored = try status()
        XCTAssertTrue(restored.radio, "radio on again")
        XCTAssertEqual(restored.radioSkips, ["artist:501": 1], "the skips kept")
        XCTAssertTrue(try queue().items.allSatisfy { $0.reason == nil }, "the reasons are not kept")
    }
}
