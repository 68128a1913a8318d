import Foundation
@testable import PreviewEngine
import PreviewCore
import XCTest

/// The stores behind the state: bounded, whole-or-nothing, and forgiving of what they find.
final class StateStoreTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "previewd-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    private func track(_ i: Int) -> Track { Track(trackId: i, trackName: "t\(i)", previewUrl: "https://example.com/\(i).m4a") }

    func testTheHistoryKeepsTheNewestTenThousand() throws {
        let journal = HistoryJournal(path: folder + "/history.jsonl", log: Log(minimum: .error))
        for i in 0..<11_500 { journal.append(HistoryEntry(time: i, track: track(i), secondsHeard: 6)) }
        let lines = try String(contentsOfFile: journal.path, encoding: .utf8).split(separator: "\n").count
        XCTAssertLessThanOrEqual(lines, HistoryJournal.maxEntries + HistoryJournal.maxEntries / 10, "bounded")
        let all = journal.entries()
        XCTAssertEqual(all.count, HistoryJournal.maxEntries)
        XCTAssertEqual(all.last?.trackId, 11_499, "the newest kept")
        XCTAssertEqual(journal.entries(limit: 3).map(\.trackId), [11_497, 11_498, 11_499])
    }

    func testListsAreBoundedAndTheirSizesReadFromTheFirstLine() throws {
        let store = try ListStore(folder: folder + "/lists", log: Log(minimum: .error))
        XCTAssertEqual(try store.save(try ListName("a"), (0..<3).map(track)), 3)
        XCTAssertEqual(try store.save(try ListName("a"), [track(9)], mode: .append), 4)
        XCTAssertEqual(store.summaries().map(\.name), ["a"])
        XCTAssertEqual(store.summaries().first?.count, 4)
        XCTAssertNotNil(store.summaries().first?.modified, "the file's time, for MPD's Last-Modified")
        XCTAssertThrowsError(try store.save(try ListName("big"), (0...ListStore.maxTracks).map(track))) {
            XCTAssertTrue(($0 as? ControlError)?.message.contains("at most 10000") == true)
        }
        for i in 1..<ListStore.maxLists { try store.save(try ListName("l\(i)"), [track(i)]) }
        XCTAssertThrowsError(try store.save(try ListName("one too many"), [track(1)])) {
            XCTAssertTrue(($0 as? ControlError)?.message.contains("at most 1000 lists") == true)
        }
        XCTAssertEqual(try store.save(try ListName("a"), [track(1)]), 1, "an existing list may still be saved")
        try store.rename(try ListName("a"), to: try ListName("b"))
        XCTAssertEqual(try store.tracks(try ListName("b")).map(\.trackId), [1])
        XCTAssertThrowsError(try store.tracks(try ListName("a")))
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/lists/b.jsonl")[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testAWriteThatFailsLeavesTheOldFileWhole() throws {
        let path = folder + "/state.jsonl"
        XCTAssertNil(AtomicFile.write(Array("old\n".utf8), to: path, durable: true))
        mkdir(path + ".part", 0o700)   // the new file cannot be made
        XCTAssertNotNil(AtomicFile.write(Array("new\n".utf8), to: path, durable: true))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
        rmdir(path + ".part")
        XCTAssertNil(AtomicFile.write(Array("new\n".utf8), to: path, durable: true))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new\n")
    }

    func testTheExportsEscapeWhatTheCatalogSays() {
        var hostile = track(1)
        hostile.trackName = "a <b> & \"c\"\u{1}\nnext"
        hostile.artistName = "x\r\n#EXTINF:0,evil"
        let xspf = PlaylistExport.xspf.render([hostile], title: "t & t")
        XCTAssertTrue(xspf.contains("<title>a &lt;b&gt; &amp; &quot;c&quot;\nnext</title>"), xspf)
        XCTAssertTrue(xspf.contains("<title>t &amp; t</title>"))
        let m3u = PlaylistExport.m3u.render([hostile], title: "t")
        XCTAssertEqual(m3u.split(separator: "\n").filter { $0.hasPrefix("#EXTINF") }.count, 1, "one entry: \(m3u)")
    }
}
