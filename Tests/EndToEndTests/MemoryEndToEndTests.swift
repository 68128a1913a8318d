import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// previewd's memory stays bounded while it runs: the loads of a replaced queue are let go at once,
/// and every store stops at its bound. Counted live through `previewctl memory` (instance counters
/// in the engine), not at exit, where a clean shutdown frees everything anyway.
final class MemoryEndToEndTests: DaemonTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try startOnSharedServer(["--rate-limit", "600"])
    }

    private func memory() throws -> MemoryReport {
        let result = try daemon.ctl("--json", "memory")
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(MemoryReport.self, from: Data(result.stdout.utf8))
    }

    /// Polls `memory` until `settled` holds (the engine lets go on its own threads), or 10 s pass.
    private func memory(until settled: (MemoryReport) -> Bool) throws -> MemoryReport {
        var report = try memory()
        let deadline = Date(timeIntervalSinceNow: 10)
        while !settled(report), Date() < deadline {
            usleep(50_000)
            report = try memory()
        }
        return report
    }

    private func withinWindow(_ report: MemoryReport) -> Bool {
        let live = report.live
        return [live.downloads, live.pcmBuffers, live.decoders, live.slots].allSatisfy { $0 <= report.window }
    }

    func testReplacingTheQueue200TimesLeavesNoMoreLoadsThanTheWindowHolds() throws {
        // The second track of "brief" is an HTML page: its neighbour's decoder fails each time, the
        // case whose slot (bytes, PCM ring) used to stay in the player's table for good.
        standIn.setFault(.html, forPathPrefix: "/previews/tone-990")
        var neighbourFailures = 0
        for round in 0..<200 {
            XCTAssertEqual(try daemon.ctl("search", "brief", "--limit", round % 2 == 0 ? "2" : "3").status, 0)
            let deadline = Date(timeIntervalSinceNow: 5)
            while Date() < deadline {
                if try queue().items.count > 1, try queue().items[1].failure != nil { neighbourFailures += 1; break }
                usleep(5_000)
            }
        }
        XCTAssertGreaterThan(neighbourFailures, 150, "the broken neighbour should have failed in most rounds")
        let playing = try memory(until: withinWindow)
        XCTAssertEqual(playing.window, 3)
        XCTAssertTrue(withinWindow(playing), "200 queues later, more loads alive than the window holds: \(playing.live)")

        XCTAssertEqual(try daemon.ctl("clear").status, 0)
        // (An artwork fetch of the last track may still be under way: it ends by itself.)
        let nothing = LiveObjectCounts(downloads: 0, pcmBuffers: 0, decoders: 0, slots: 0, httpExchanges: 0)
        XCTAssertEqual(try memory { $0.live == nothing }.live, nothing, "an empty queue holds no load")
        XCTAssertTrue(daemon.isRunning)
    }

    func test500SearchesLeaveEveryStoreWithinItsBound() throws {
        // 120 different queries (each a catalog call once, then the cache's answer): more than the
        // catalog cache keeps, so it must evict.
        let terms = ["sine", "brief", "tones", "sine waves"]
        for round in 0..<500 {
            let query = round % 120
            var result = try daemon.ctl("search", terms[query % 4], "--limit", String(1 + query / 4), "--no-play")
            while result.status == 9 {   // rate limited (600 calls a minute): wait for the bucket
                usleep(200_000)
                result = try daemon.ctl("search", terms[query % 4], "--limit", String(1 + query / 4), "--no-play")
            }
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let report = try memory(until: withinWindow)
        let cache = try XCTUnwrap(report.stores.first { $0.name == "catalog-cache" })
        XCTAssertEqual(cache.entries, cache.maxEntries, "the cache filled up to its bound and stopped there")
        for store in report.stores {
            XCTAssertTrue(store.isWithinBounds, "\(store.name) is past its bound: \(store)")
        }
        XCTAssertTrue(withinWindow(report), "\(report.live)")
        XCTAssertNotNil(report.anonymousBytes)
    }
}
