import Foundation
import PreviewCore
import XCTest

/// Real payloads (from the seeds), malformed entries, hostile results, the chart feed, sorting.
final class CatalogDecodingTests: XCTestCase {
    private func payload(_ name: String) throws -> SearchResponse {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/payloads/\(name).json")
        return try JSONDecoder().decode(SearchResponse.self, from: Data(contentsOf: url))
    }

    func testRealPayloadsDecode() throws {
        let jack = try payload("search-jack-johnson")
        XCTAssertEqual(jack.results.first?.trackName, "Upside Down")
        XCTAssertNil(jack.results.first?.unplayableReason)
        let home = try payload("search-to-build-a-home")
        XCTAssertEqual(home.results.first?.trackTimeMillis, 370667)
        let amelie = try XCTUnwrap(payload("search-amelie-movie").results.first)
        XCTAssertEqual(amelie.kind, "feature-movie")
        XCTAssertEqual(amelie.trackRentalPrice, 3.99)
        XCTAssertEqual(amelie.contentAdvisoryRating, "R")
        XCTAssertTrue(amelie.longDescription?.hasPrefix("Quiet and reserved") == true)
        XCTAssertTrue(amelie.previewUrl?.hasSuffix(".m4v") == true)
        XCTAssertNil(amelie.unplayableReason, "a film's m4v preview plays its audio")
        let emily = try XCTUnwrap(payload("search-emily-song").results.first)
        XCTAssertEqual(emily.trackPrice, -1)
    }

    func testMalformedEntriesAreSkippedAndCountedNeverThePage() throws {
        let json = #"""
        {"resultCount": 6, "results": [
          {"wrapperType": "track", "trackId": 1, "trackName": "good", "previewUrl": "https://a.example/1.m4a"},
          "not an object",
          {"wrapperType": "track", "trackId": "two", "trackName": "id of the wrong type"},
          null,
          {"wrapperType": "track", "trackId": 3, "trackName": "price of the wrong type", "trackPrice": "1.29"},
          {"wrapperType": "track", "trackId": 4, "trackName": "also good", "previewUrl": "https://a.example/4.m4a", "unknownField": [1, 2]}
        ]}
        """#
        let response = try JSONDecoder().decode(SearchResponse.self, from: Data(json.utf8))
        XCTAssertEqual(response.results.map(\.trackId), [1, 4])
        XCTAssertEqual(response.skipped, 4)
        XCTAssertThrowsError(try JSONDecoder().decode(SearchResponse.self, from: Data(#"{"results": 5}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(SearchResponse.self, from: Data(#"{"resultCount": 1, "res"#.utf8)))
    }

    func testHostilePreviewURLsAreShownButNotQueued() {
        let hostile = ["file:///etc/passwd", "concat:/a|/b", "ftp://x.example/a.m4a", "data:audio/mp4;base64,AAAA",
                       "/tmp/x.m4a", "tone.m4a", "https://", "https://host/\u{1B}[2J"]
        for url in hostile {
            let reason = Track(trackId: 1, trackName: "t", previewUrl: url).unplayableReason
            XCTAssertNotNil(reason, url)
        }
        XCTAssertEqual(Track(trackId: 1, trackName: "t").unplayableReason, "no preview")
        var album = Track(collectionName: "An Album")
        album.wrapperType = "collection"
        XCTAssertEqual(album.unplayableReason, "an album, not a track")
        XCTAssertTrue(Track(trackId: 1, previewUrl: "file:///etc/passwd").unplayableReason?.contains("\"file\"") == true)
        XCTAssertNil(Track(trackId: 1, previewUrl: "http://127.0.0.1:8080/p.m4a").unplayableReason)
    }

    func testLocalAddressesAreRefusedExceptTheAPIsOwn() {
        let api = PreviewURLPolicy.origin(of: "http://127.0.0.1:8080")
        XCTAssertEqual(api, "127.0.0.1:8080")
        XCTAssertEqual(PreviewURLPolicy.origin(of: "https://Audio-SSL.itunes.apple.com/a.m4a"), "audio-ssl.itunes.apple.com:443")
        XCTAssertEqual(PreviewURLPolicy.origin(of: "http://[::1]:9/x"), "[::1]:9")
        XCTAssertNil(PreviewURLPolicy.localAddressReason("http://127.0.0.1:8080/previews/a.m4a", apiOrigin: api))
        XCTAssertNil(PreviewURLPolicy.localAddressReason("https://audio-ssl.itunes.apple.com/a.m4a", apiOrigin: api))
        XCTAssertNil(PreviewURLPolicy.localAddressReason("http://172.32.0.1/a.m4a", apiOrigin: nil), "172.32/16 is public")
        for url in ["http://127.0.0.1:631/", "http://127.0.0.1/", "http://localhost:8080/a", "http://LOCALHOST./a",
                    "http://x.localhost/a", "http://[::1]/a", "http://[fe80::1]/a", "http://[fd00::5]/a", "http://10.0.0.1/a",
                    "http://172.16.0.1/a", "http://172.31.255.255/a", "http://192.168.0.10/a", "http://169.254.169.254/a",
                    "http://0.0.0.0:8080/a", "http://2130706433/a", "http://0x7f.1/a", "http://127.1/a", "http://100.64.0.1/a"] {
            XCTAssertNotNil(PreviewURLPolicy.localAddressReason(url, apiOrigin: api), url)
        }
    }

    func testTerminalEscapesAndBidiOverridesAreNeutralised() {
        let name = "Evil\u{1B}]0;title\u{07}\u{1B}[31mRed\u{202E}desrever\u{0008}"
        let clean = TerminalText.sanitized(name)
        XCTAssertFalse(clean.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" })
        XCTAssertTrue(clean.contains("Red"))
    }

    func testChartFeedWithAndWithoutPreviewLinks() throws {
        let feed = #"""
        {"feed": {"entry": [
          {"im:name": {"label": "One"}, "im:artist": {"label": "A", "attributes": {"href": "https://music.apple.com/a"}},
           "id": {"label": "https://x", "attributes": {"im:id": "11"}},
           "im:price": {"attributes": {"amount": "1.29000", "currency": "USD"}},
           "category": {"attributes": {"label": "Pop"}}, "im:releaseDate": {"label": "2024-01-02T00:00:00-07:00"},
           "link": [{"attributes": {"rel": "alternate", "href": "https://music.apple.com/one"}},
                    {"attributes": {"im:assetType": "preview", "href": "https://audio.example/one.m4a"}, "im:duration": {"label": "30000"}}]},
          {"im:name": {"label": "Two"}, "id": {"attributes": {"im:id": "12"}},
           "link": {"attributes": {"rel": "alternate", "href": "https://music.apple.com/two"}}},
          {"im:name": {"label": "no id"}},
          "garbage"
        ]}}
        """#
        let chart = try JSONDecoder().decode(ChartFeed.self, from: Data(feed.utf8))
        XCTAssertEqual(chart.tracks.map(\.trackId), [11, 12])
        XCTAssertEqual(chart.skipped, 2)
        XCTAssertEqual(chart.tracks[0].previewUrl, "https://audio.example/one.m4a")
        XCTAssertEqual(chart.tracks[0].trackPrice, 1.29)
        XCTAssertNil(chart.tracks[0].trackTimeMillis, "im:duration is the preview's length, not the song's")
        XCTAssertEqual(chart.format, .legacy)
        XCTAssertEqual(chart.tracks[0].primaryGenreName, "Pop")
        XCTAssertNil(chart.tracks[1].previewUrl)
        XCTAssertEqual(chart.tracks[1].trackViewUrl, "https://music.apple.com/two")
        let single = #"{"feed": {"entry": {"im:name": {"label": "Solo"}, "id": {"attributes": {"im:id": "5"}}}}}"#
        XCTAssertEqual(try JSONDecoder().decode(ChartFeed.self, from: Data(single.utf8)).tracks.map(\.trackId), [5])
    }

    func testSortingPutsMissingAndMinusOnePricesLast() {
        func t(_ id: Int, price: Double? = nil, ms: Int? = nil, genre: String? = nil, date: String? = nil, title: String? = nil, artist: String? = nil) -> Track {
            var track = Track(trackId: id, trackName: title, artistName: artist)
            track.trackPrice = price
            track.trackTimeMillis = ms
            track.primaryGenreName = genre
            track.releaseDate = date
            return track
        }
        let tracks = [t(1, price: 1.29), t(2, price: -1), t(3, price: 0.99), t(4), t(5, price: 1.29)]
        XCTAssertEqual(TrackSort(.price).sorted(tracks).map(\.trackId), [3, 1, 5, 2, 4])
        XCTAssertEqual(TrackSort(.price, descending: true).sorted(tracks).map(\.trackId), [1, 5, 3, 2, 4])
        let timed = [t(1, ms: 300), t(2, ms: 100), t(3), t(4, ms: 200)]
        XCTAssertEqual(TrackSort(.duration).sorted(timed).map(\.trackId), [2, 4, 1, 3])
        let dated = [t(1, date: "2007-05-07T07:00:00Z"), t(2, date: "2001-11-16T08:00:00Z"), t(3, date: "2006-11-14T12:00:00Z")]
        XCTAssertEqual(TrackSort(.released, descending: true).sorted(dated).map(\.trackId), [1, 3, 2])
        let named = [t(1, genre: "Rock", title: "b", artist: "Zed"), t(2, genre: "electronic", title: "A", artist: "amy"), t(3, genre: "Pop", title: "c")]
        XCTAssertEqual(TrackSort(.title).sorted(named).map(\.trackId), [2, 1, 3])
        XCTAssertEqual(TrackSort(.genre).sorted(named).map(\.trackId), [2, 3, 1])
        XCTAssertEqual(TrackSort(.artist).sorted(named).map(\.trackId), [2, 1, 3])
    }
}
