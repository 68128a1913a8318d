import PreviewCore
import XCTest

/// The track memory's store: by trackId, least recently used first, bounded in bytes and count.
final class TrackMemoryCoreTests: XCTestCase {
    private func track(_ id: Int?, preview: String? = "https://a.example/p.m4a", wrapper: String? = "track") -> Track {
        var t = Track(trackId: id, trackName: "Song \(id ?? 0)", previewUrl: preview)
        t.wrapperType = wrapper
        return t
    }

    /// Tracks are kept by id; collections, artists and tracks without an id are not.
    func testKeepsTracksByIdOnly() {
        var seen = TrackMemoryCore()
        seen.remember([track(1), track(nil), track(2, wrapper: "collection"), track(3, wrapper: nil)])
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(seen.track(1)?.trackName, "Song 1")
        XCTAssertNotNil(seen.track(3))
        XCTAssertEqual(Set(seen.tracks([1, 2, 3, 4]).keys), [1, 3])
    }

    /// The least recently used goes first: a track read or answered again keeps its place.
    func testLeastRecentlyUsedGoesFirst() {
        var seen = TrackMemoryCore(capacity: 3)
        seen.remember([track(1), track(2), track(3)])
        _ = seen.track(1)                      // 2 is now the oldest
        seen.remember([track(4)])
        XCTAssertFalse(seen.contains(2))
        seen.remember([track(3)])              // answered again: 1 is the oldest
        seen.remember([track(5)])
        XCTAssertFalse(seen.contains(1))
        XCTAssertEqual([3, 4, 5].filter(seen.contains), [3, 4, 5])
        XCTAssertEqual(seen.count, 3)
    }

    /// A newer answer replaces an older one, but a row without a preview does not replace one with it.
    func testNewerAnswerReplacesUnlessItLacksThePreview() {
        var seen = TrackMemoryCore()
        seen.remember([track(1)])
        var renamed = track(1)
        renamed.trackName = "Renamed"
        seen.remember([renamed])
        XCTAssertEqual(seen.track(1)?.trackName, "Renamed")
        seen.remember([track(1, preview: nil)])
        XCTAssertEqual(seen.track(1)?.previewUrl, "https://a.example/p.m4a")
    }

    /// Bounded in bytes: the default keeps at least the last 2,000 tracks however large each is (a
    /// track over `maxTrackBytes` is not kept), and the estimate never passes the bound.
    func testBytesBoundKeepsAtLeastTwoThousand() {
        var seen = TrackMemoryCore()
        let long = String(repeating: "x", count: 200)
        for id in 1...30_000 {
            var t = track(id, preview: "https://audio.example/\(long)/\(id).m4a")
            t.artistName = long
            t.collectionName = long
            t.artworkUrl100 = "https://art.example/\(long)/\(id).jpg"
            seen.remember([t])
            XCTAssertLessThanOrEqual(seen.bytes, seen.maxBytes)
        }
        XCTAssertGreaterThanOrEqual(seen.count, 2_000)
        XCTAssertTrue(seen.contains(30_000))
        XCTAssertGreaterThanOrEqual(seen.maxBytes / TrackMemoryCore.maxTrackBytes, 2_000)
        var film = track(1)
        film.longDescription = String(repeating: "y", count: 10_000)
        seen.remember([film])
        XCTAssertFalse(seen.contains(1), "a track larger than maxTrackBytes is not kept")
    }
}
