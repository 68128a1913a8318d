import Foundation
import PreviewCore
import XCTest

final class CatalogModelTests: XCTestCase {
    /// The payload contract from the project's seeds (a real answer for `search?term=jack+johnson`).
    let seedPayload = #"""
    {"resultCount":1,"results":[{"wrapperType":"track","kind":"song","artistId":909253,"collectionId":1469577723,
    "trackId":1469577741,"artistName":"Jack Johnson","collectionName":"Jack Johnson and Friends: Sing-A-Longs and Lullabies for the Film Curious George",
    "trackName":"Upside Down","collectionCensoredName":"Jack Johnson and Friends: Sing-A-Longs and Lullabies for the Film Curious George",
    "trackCensoredName":"Upside Down","artistViewUrl":"https://music.apple.com/us/artist/jack-johnson/909253?uo=4",
    "collectionViewUrl":"https://music.apple.com/us/album/upside-down/1469577723?i=1469577741&uo=4",
    "trackViewUrl":"https://music.apple.com/us/album/upside-down/1469577723?i=1469577741&uo=4",
    "previewUrl":"https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview125/v4/5e/5b/3d/5e5b3df4-deb5-da78-5d64-fe51d8404d5c/mzaf_13341178261601361485.plus.aac.p.m4a",
    "artworkUrl30":"https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/ae/4c/d4/ae4cd42a-80a9-d950-16f5-36f01a9e1881/source/30x30bb.jpg",
    "artworkUrl60":"https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/ae/4c/d4/ae4cd42a-80a9-d950-16f5-36f01a9e1881/source/60x60bb.jpg",
    "artworkUrl100":"https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/ae/4c/d4/ae4cd42a-80a9-d950-16f5-36f01a9e1881/source/100x100bb.jpg",
    "collectionPrice":9.99,"trackPrice":1.29,"releaseDate":"2005-01-01T12:00:00Z","collectionExplicitness":"notExplicit",
    "trackExplicitness":"notExplicit","discCount":1,"discNumber":1,"trackCount":14,"trackNumber":1,"trackTimeMillis":208643,
    "country":"USA","currency":"USD","primaryGenreName":"Rock","isStreamable":true}]}
    """#

    func testDecodesTheRealPayloadWithApplesFieldNames() throws {
        let response = try JSONDecoder().decode(SearchResponse.self, from: Data(seedPayload.utf8))
        XCTAssertEqual(response.resultCount, 1)
        let track = try XCTUnwrap(response.results.first)
        XCTAssertEqual(track.trackId, 1469577741)
        XCTAssertEqual(track.trackName, "Upside Down")
        XCTAssertEqual(track.artistName, "Jack Johnson")
        XCTAssertEqual(track.trackPrice, 1.29)
        XCTAssertEqual(track.trackTimeMillis, 208643)
        XCTAssertEqual(track.isStreamable, true)
        XCTAssertNotNil(track.fetchablePreviewURL)
        // Re-encoding keeps Apple's names, so clients see the same fields.
        let again = try JSONSerialization.jsonObject(with: JSONEncoder().encode(track)) as? [String: Any]
        XCTAssertEqual(again?["previewUrl"] as? String, track.previewUrl)
        XCTAssertEqual(again?["collectionName"] as? String, track.collectionName)
    }

    func testUnknownFieldsAndMissingFieldsAreFine() throws {
        let json = #"{"resultCount":2,"results":[{"wrapperType":"artist","artistName":"X","amgArtistId":5},{"trackName":"Y"}]}"#
        let response = try JSONDecoder().decode(SearchResponse.self, from: Data(json.utf8))
        XCTAssertEqual(response.results.map(\.artistName), ["X", nil])
        XCTAssertNil(response.results[1].fetchablePreviewURL)
    }

    func testOnlyHTTPPreviewURLsAreFetchable() {
        for ok in ["https://audio-ssl.itunes.apple.com/a.m4a", "http://127.0.0.1:8080/previews/x.m4a", "HTTPS://Example.com/x"] {
            XCTAssertTrue(PreviewURLPolicy.isFetchable(ok), ok)
        }
        for bad in ["file:///etc/passwd", "/etc/passwd", "concat:a|b", "ftp://host/x", "data:audio/mp4;base64,AAAA",
                    "https://", "https:///path", "http://host/a b", "http://host/\u{1b}[2J", "javascript:alert(1)", ""] {
            XCTAssertFalse(PreviewURLPolicy.isFetchable(bad), bad)
        }
    }

    func testTerminalTextRemovesEscapesAndBidiOverrides() {
        XCTAssertEqual(TerminalText.sanitized("Plain — Ünïcode 日本"), "Plain — Ünïcode 日本")
        XCTAssertFalse(TerminalText.sanitized("evil\u{1b}[2Jname").contains("\u{1b}"))
        XCTAssertFalse(TerminalText.sanitized("abc\u{202E}fed").contains("\u{202E}"))
        XCTAssertFalse(TerminalText.sanitized("two\nlines\r").contains("\n"))
    }

    func testQueueNavigationSkipsUnplayableAndFailedItems() throws {
        var queue = PlayQueue(tracks: [
            Track(trackId: 1, previewUrl: "https://a/1"), Track(trackId: 2), Track(trackId: 3, previewUrl: "https://a/3"),
            Track(trackId: 4, previewUrl: "file:///etc/passwd"), Track(trackId: 5, previewUrl: "https://a/5"),
        ])
        // firstPlayable answers with an item id (track i has id i + 1 here).
        XCTAssertEqual(queue.firstPlayable(from: 0), 1)
        XCTAssertEqual(queue.firstPlayable(from: 1), 3)
        XCTAssertEqual(queue.firstPlayable(from: 3), 5)
        XCTAssertNil(queue.firstPlayable(from: 5))
        queue.markFailed(3, message: "broken")
        XCTAssertEqual(queue.firstPlayable(from: 1), 5)
        XCTAssertEqual(queue.items[2].failure, "broken")
        XCTAssertFalse(queue.isPlayable(3))
        queue.markFailed(99, message: "ignored")
        XCTAssertEqual(queue.count, 5)
        try queue.append([Track(trackId: 6, previewUrl: "https://a/6")])
        XCTAssertEqual(queue.firstPlayable(from: 5), 6)
    }

    func testTheQueueHasAMaximum() throws {
        var queue = PlayQueue(tracks: (0..<PlayQueue.maxCount - 5).map { Track(trackId: $0, previewUrl: "https://a/\($0)") })
        XCTAssertThrowsError(try queue.append((0..<10).map { Track(trackId: $0, previewUrl: "https://a/\($0)") })) {
            XCTAssertEqual(($0 as? ControlError)?.code, .rejected)
            XCTAssertTrue(($0 as? ControlError)?.message.contains("at most 10000 tracks") == true, "\($0)")
        }
        XCTAssertEqual(queue.count, PlayQueue.maxCount - 5, "nothing was added")
        try queue.append((0..<5).map { Track(trackId: $0, previewUrl: "https://a/\($0)") })
        XCTAssertEqual(queue.count, PlayQueue.maxCount)
    }
}
