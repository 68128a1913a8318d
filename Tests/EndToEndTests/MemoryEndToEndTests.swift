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

    /// One command on the JSON socket (no previewctl process: hundreds of them stay quick); its
    /// result, or nil with the error's code.
    private func call<Result: Decodable>(_ command: ControlCommand, as: Result.Type = Result.self) throws -> (Result?, String?) {
        let line = try daemon.request(String(decoding: try JSONEncoder().encode(command.request(id: 1)), as: UTF8.self))
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        guard let result = reply["result"] else { return (nil, (reply["error"] as? [String: Any])?["code"] as? String) }
        return (try JSONDecoder().decode(Result.self, from: JSONSerialization.data(withJSONObject: result)), nil)
    }

    private func memory() throws -> MemoryReport {
        try XCTUnwrap(try call(.memory, as: MemoryReport.self).0)
    }

    /// A search (replacing the queue, playing or not), tried again while previewd holds calls to
    /// stay under the rate limit.
    private func search(_ term: String, limit: Int, play: Bool = true) throws {
        var error: String?
        // A minute: the limit counts calls a minute.
        let admitted = try eventually(timeout: 60, interval: 0.2) {
            error = try call(.search(CatalogQuery(term: term, limit: limit), Enqueue(play: play)), as: JSONValue.self).1
            return error != "rate-limited"
        }
        XCTAssertTrue(admitted, "search \(term) --limit \(limit): still rate-limited after a minute")
        XCTAssertNil(error, "search \(term) --limit \(limit)")
    }

    /// Polls `memory` until `settled` holds (the engine lets go on its own threads), or 10 s pass
    /// (times the patience); the last report.
    private func memory(within seconds: Double = 10, until settled: (MemoryReport) -> Bool) throws -> MemoryReport {
        var report = try memory()
        try eventually(timeout: seconds, interval: 0.05) {
            report = try memory()
            return settled(report)
        }
        return report
    }

    private func withinWindow(_ report: MemoryReport) -> Bool {
        let live = report.live
        return [live.downloads, live.pcmBuffers, live.decoders, live.slots].allSatisfy { $0 <= report.window + (report.heads ?? 0) }
    }

    func testReplacingTheQueue200TimesLeavesNoMoreLoadsThanTheWindowHolds() throws {
        // The second track of "brief" is an HTML page: its neighbour's decoder fails each time, the
        // case whose slot (bytes, PCM ring) used to stay in the player's table for good.
        standIn.setFault(.html, forPathPrefix: "/previews/tone-990")
        var neighbourFailures = 0
        for round in 0..<200 {
            try search("brief", limit: round % 2 == 0 ? 2 : 3)
            let neighbourFailed = try eventually(timeout: 5, interval: 0.005) {
                let items = try XCTUnwrap(try call(.queue(since: nil), as: QueueReport.self).0).items
                return items.count > 1 && items[1].failure != nil
            }
            if neighbourFailed { neighbourFailures += 1 }
        }
        XCTAssertGreaterThan(neighbourFailures, 150, "the broken neighbour should have failed in most rounds")
        let playing = try memory(until: withinWindow)
        XCTAssertEqual(playing.window, 3)
        XCTAssertTrue(withinWindow(playing), "200 queues later, more loads alive than the window holds: \(playing.live)")

        XCTAssertEqual(try daemon.ctl("clear").status, 0)
        XCTAssertEqual(try daemon.ctl("visible").status, 0)   // nothing on screen either: the last answer's heads go
        // An HTTP exchange may still be under way (the artwork of the last track is never
        // cancelled): it ends by itself, within its connect and stall timeouts (at most 20 s, the
        // client's watchdog included); a retained one never would.
        let nothing = LiveObjectCounts(downloads: 0, pcmBuffers: 0, decoders: 0, slots: 0, httpExchanges: 0)
        XCTAssertEqual(try memory(within: 30) { $0.live == nothing }.live, nothing, "an empty queue with nothing on screen holds no load")
        XCTAssertTrue(daemon.isRunning)
    }

    func test500SearchesLeaveEveryStoreWithinItsBound() throws {
        // 72 different queries (each a catalog call once, then the cache's answer): more than the 64
        // the catalog cache keeps, so it must evict.
        let terms = ["sine", "brief", "tones", "sine waves"]
        for round in 0..<500 {
            let query = round % 72
            try search(terms[query % 4], limit: 1 + query / 4, play: false)
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
