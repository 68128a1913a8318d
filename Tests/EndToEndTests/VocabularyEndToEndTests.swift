import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The front-end vocabulary through the socket, as a client uses it: a look at the catalog that
/// leaves the queue alone, add at a position answering ids, what plays next, consume and single,
/// the queue's changes since a version, and the original artwork in chunks.
final class VocabularyEndToEndTests: SharedServerTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ result: ProcessRunner.Result, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try JSONDecoder().decode(T.self, from: Data(result.stdout.utf8))
    }

    /// The `result` of a raw request line's answer.
    private func answer<T: Decodable>(_ type: T.Type, _ line: String) throws -> T {
        let reply = try daemon.request(line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any], reply)
        XCTAssertEqual(object["ok"] as? Bool, true, reply)
        return try JSONDecoder().decode(T.self, from: JSONSerialization.data(withJSONObject: object["result"] as Any))
    }

    func testALookAtTheCatalogLeavesTheQueueAsAnotherClientEditedIt() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        standIn.setFault(.delay(milliseconds: 1500), forPathPrefix: "/search")
        let look = try daemon.ctlInBackground("--json", "search", "square roots", "--no-queue")
        XCTAssertEqual(try daemon.ctl("remove", "0").status, 0, "another client edits meanwhile")
        let edited = try queue()
        XCTAssertTrue(look.waitFor("\"queued\":false"), look.output)
        look.stop()
        standIn.setFault(nil, forPathPrefix: "/search")
        let report = try JSONDecoder().decode(CatalogReport.self, from: Data(look.output.utf8))
        XCTAssertEqual(report.results.map(\.trackId), [2001, 2002, 2003])
        XCTAssertEqual(report.ids, [])
        XCTAssertNil(report.firstQueueIndex)
        XCTAssertEqual(report.notQueued.map(\.result), [0], "which results could not be queued, and why")
        XCTAssertEqual(try queue(), edited, "the queue and its version are as the other client left them")
        XCTAssertEqual(try status().state, .stopped, "playback untouched")

        let table = try daemon.ctl("search", "square roots", "--no-queue")
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("Upside Sine"), table.stdout)
        XCTAssertFalse(table.stdout.contains("queued"), "the table only: \(table.stdout)")
        XCTAssertEqual(try queue(), edited)
    }

    func testAddAtNextAnswersTheIdsAndPlaysThemNextAndTracksNeedNoNetwork() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "the search's first track")
        let added = try decode(AddReport.self, try daemon.ctl("--json", "add", "--ids", "3002", "--at", "next"))
        XCTAssertEqual(added.ids.count, 1)
        let now = try status()
        XCTAssertEqual(added.queueVersion, now.queueVersion)
        XCTAssertEqual(now.nextId, added.ids[0], "what plays next is the added track")
        XCTAssertEqual(now.nextIndex, 1)
        XCTAssertEqual(try queue().items[1].track.trackId, 3002)
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(990, after: mark, "next plays the track added next")

        // Tracks as a look answered them go in with no catalog call.
        let look = try answer(CatalogReport.self, #"{"cmd":"search","args":{"term":"square roots","queue":false}}"#)
        // Catalog calls only: the heads of what the look answered are previews, fetched meanwhile.
        let catalogCalls = { [standIn] in standIn!.requestLog.filter { !$0.contains("/previews/") && !$0.contains("/artwork/") }.count }
        let calls = catalogCalls()
        let track = String(decoding: try JSONEncoder().encode(look.results[2]), as: UTF8.self)
        let placed = try answer(AddReport.self, #"{"cmd":"add","args":{"tracks":[\#(track)],"at":0}}"#)
        XCTAssertEqual(placed.ids.count, 1)
        XCTAssertEqual(try queue().items.first?.track.trackId, 2003)
        XCTAssertEqual(try queue().items.first?.id, placed.ids[0])
        XCTAssertEqual(catalogCalls(), calls, "no catalog call")

        let missing = try answer(AddReport.self, #"{"cmd":"add","args":{"trackIds":[3001,999999]}}"#)
        XCTAssertEqual(missing.ids.count, 1)
        XCTAssertEqual(missing.notQueued, [CatalogReport.NotQueued(result: 1, reason: "not found in the catalog")])
        let refused = try daemon.request(#"{"cmd":"add","args":{"trackIds":[3001],"at":99}}"#)
        XCTAssertTrue(refused.contains("bad-argument"), refused)
    }

    func testConsumeTakesWhatPlayedAndSingleOneshotStopsOnce() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--sort", "duration").status, 0)
        expectTone(770, after: mark, "the first two-second tone")
        XCTAssertEqual(try daemon.ctl("consume", "on").status, 0)
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(990, after: mark, "the second")
        XCTAssertFalse(try queue().items.contains { $0.track.trackId == 3001 }, "left by next: consumed")
        let single = try daemon.ctl("single", "oneshot")
        XCTAssertTrue(single.stdout.contains("single once") && single.stdout.contains("consume"), single.stdout)
        try waitForStatus(timeout: 15, "single stops at the end of the track") { $0.state == .stopped }
        let after = try status()
        XCTAssertEqual(after.single, .off, "oneshot: once")
        XCTAssertTrue(after.consume)
        XCTAssertFalse(try queue().items.contains { $0.track.trackId == 3002 }, "heard to its end: consumed")
    }

    func testQueueChangesSinceAVersion() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        let start = try status().queueVersion
        XCTAssertEqual(try daemon.ctl("move", "6", "5").status, 0)
        let moved = try decode(QueueChangesReport.self, try daemon.ctl("--json", "queue", "--since", String(start)))
        XCTAssertEqual(moved.version, start + 1)
        XCTAssertEqual(moved.length, 7)
        XCTAssertEqual(moved.items.map(\.index), [5, 6], "the two that swapped places")
        let human = try daemon.ctl("queue", "--since", String(start))
        XCTAssertTrue(human.stdout.hasPrefix("version \(start + 1), 7 items, 2 changed"), human.stdout)
    }

    func testTheOriginalArtworkOfAnyItemInChunks() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        let file = NSTemporaryDirectory() + "previewd-cover-\(getpid()).jpg"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let cover = try daemon.ctl("cover", "0", "--output", file)
        XCTAssertEqual(cover.status, 0, cover.stderr)
        let jpeg = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.directory.path + "/artwork/quadrants.jpg"))
        XCTAssertEqual(FileManager.default.contents(atPath: file), jpeg, "the image as fetched, byte for byte")

        let tail = try answer(ArtworkFileReport.self, #"{"cmd":"artwork","args":{"original":true,"index":0,"offset":4000}}"#)
        XCTAssertEqual(tail.mime, "image/jpeg")
        XCTAssertEqual(tail.size, jpeg.count)
        XCTAssertEqual(Data(tail.data), jpeg.subdata(in: 4000..<jpeg.count), "a chunk from its offset")
        let past = try answer(ArtworkFileReport.self, #"{"cmd":"artwork","args":{"original":true,"index":0,"offset":99999}}"#)
        XCTAssertEqual(past.data, [], "nothing past the end")

        let png = try answer(ArtworkFileReport.self, #"{"cmd":"artwork","args":{"original":true,"index":1}}"#)
        XCTAssertEqual(png.mime, "image/png", "any item's, not only the current one's")
        XCTAssertEqual(Data(png.data), FileManager.default.contents(atPath: Fixtures.directory.path + "/artwork/halves.png"))
        let broken = try daemon.request(#"{"cmd":"artwork","args":{"original":true,"index":2}}"#)
        XCTAssertTrue(broken.contains("\"ok\":false"), broken)
    }

    /// A results list's pictures, by track id, for tracks answered and never queued (a web page's
    /// search); previewd fetches only what the catalog named, and nothing not answered lately.
    func testTheArtworkOfAnsweredTracksByTrackId() throws {
        XCTAssertEqual(try daemon.ctl("clear").status, 0)
        let found = try answer(CatalogReport.self, #"{"cmd":"search","args":{"term":"sine waves","queue":false}}"#)
        let first = try XCTUnwrap(found.results.first?.trackId)
        let jpeg = try XCTUnwrap(FileManager.default.contents(atPath: Fixtures.directory.path + "/artwork/quadrants.jpg"))
        for small in [false, true] {
            let picture = try answer(ArtworkFileReport.self, #"{"cmd":"artwork","args":{"original":true,"trackId":\#(first),"small":\#(small)}}"#)
            XCTAssertEqual(picture.mime, "image/jpeg")
            XCTAssertEqual(Data(picture.data), jpeg, small ? "Apple's 100-pixel one" : "the 600-pixel one")
        }
        XCTAssertEqual(try queue().items.count, 0, "the queue is untouched")
        let unknown = try daemon.request(#"{"cmd":"artwork","args":{"original":true,"trackId":424242}}"#)
        XCTAssertTrue(unknown.contains("\"ok\":false") && unknown.contains("not answered lately"), unknown)
    }
}
