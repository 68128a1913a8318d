import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The output and transport as heard: gapless hand-over, prefetched neighbours, volume and mute,
/// repeat, and a PulseAudio server that dies and comes back.
final class OutputEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (OutputScenarioTests run the sequencer in-process)
    func testAutoAdvanceIsGaplessTheTonesTouch() throws {
        try startOnSharedServer()
        try checkGaplessAdvance()
    }

    func testNeighboursArePrefetchedAndPrevIsPlayedFromThem() throws {
        try startOnSharedServer()
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark))
        var report = try status()
        let next = try XCTUnwrap(report.slots.first { $0.role == "next" }, "\(report.slots)")
        XCTAssertEqual(next.index, 1)
        XCTAssertEqual(next.trackId, 1002)
        XCTAssertTrue(next.complete)
        XCTAssertNotEqual(next.state, "decoding", "the next track's first seconds are decoded ahead")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        XCTAssertNotNil(recorder.waitForTone(660, after: mark))
        report = try status()
        XCTAssertEqual(Set(report.slots.map(\.role)), ["current", "next", "previous"], "\(report.slots)")
        XCTAssertEqual(report.slots.first { $0.role == "previous" }?.index, 0)
        XCTAssertEqual(report.slots.first { $0.role == "next" }?.index, 2)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("prev").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark), "prev plays the previous track")
        // Every preview was fetched once: the neighbours came from memory, not a second request.
        let fetches = standIn.requestLog.filter { $0.contains("/previews/tone-440") }
        XCTAssertEqual(fetches.count, 1, "\(standIn.requestLog)")
    }

    func testVolumeMuteAndRepeatOne() throws {
        try startOnSharedServer()
        try checkVolumeMuteAndRepeatOne()
    }
}
