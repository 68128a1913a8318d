import PreviewCore
import XCTest

/// The length a track plays here is its preview's: estimated before a decoder read it, exact
/// after, the exact one replacing the estimate in the queue as one change (MPD's clients read it
/// again through `plchanges`).
final class PreviewLengthTests: XCTestCase {
    private func song(_ id: Int, ms: Int?) -> Track {
        var track = Track(trackId: id, previewUrl: "https://example.com/\(id).m4a")
        track.trackTimeMillis = ms
        return track
    }

    func testTheEstimateIsThirtySecondsOrTheShorterSong() {
        XCTAssertEqual(PreviewLength.estimateMs(song(1, ms: 187_000)), 30_000, "a 3:07 song plays its 30-second preview")
        XCTAssertEqual(PreviewLength.estimateMs(song(1, ms: 12_000)), 12_000, "a song shorter than a preview")
        XCTAssertEqual(PreviewLength.estimateMs(song(1, ms: nil)), 30_000, "no length named: the store's usual preview")
        XCTAssertEqual(PreviewLength.estimateMs(song(1, ms: 0)), 30_000)
        XCTAssertEqual(PreviewLength.ms(song(1, ms: 187_000), decodedMs: 29_976), 29_976, "decoded: exact")
    }

    func testTheDecodedLengthReplacesTheEstimateAsOneQueueChange() throws {
        var core = PlayerCore()
        let tracks = [song(1, ms: 187_000), song(2, ms: 200_000), song(1, ms: 187_000)]
        _ = core.replaceQueue(with: tracks, play: true)
        let slot = try XCTUnwrap(core.current)
        _ = core.handle(.ready(slot.id, containerMs: 30_040))
        XCTAssertNil(core.queue.items[0].previewMs, "the container's word is not the decoded length")
        XCTAssertEqual(core.queue.items[0].playableMs, 30_000, "the estimate until then")
        let version = core.queue.version
        let effects = core.handle(.finished(slot.id, ms: 29_976))
        XCTAssertEqual(core.queue.items.map(\.previewMs), [29_976, nil, 29_976], "every item of that preview")
        XCTAssertEqual(core.queue.version, version + 1, "one change")
        XCTAssertEqual(Set(core.queue.changes(since: version).map(\.item.id)), [core.queue.items[0].id, core.queue.items[2].id])
        XCTAssertTrue(PlayerCoreVocabularyTests.events(effects).contains(.queue(length: 3, version: version + 1)))
        _ = core.handle(.finished(slot.id, ms: 29_976))
        XCTAssertEqual(core.queue.version, version + 1, "the same length again is no change")
    }

    func testAQueueItemCarriesItsDecodedLengthOnTheWire() throws {
        var item = QueueItem(track: song(1, ms: 187_000), id: 4)
        item.previewMs = 29_976
        let decoded = try JSONDecoder().decode(QueueItem.self, from: JSONEncoder().encode(item))
        XCTAssertEqual(decoded.previewMs, 29_976)
        XCTAssertNil(try JSONDecoder().decode(QueueItem.self, from: JSONEncoder().encode(QueueItem(track: song(1, ms: nil), id: 4))).previewMs)
    }
}
