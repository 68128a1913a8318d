import Foundation
import PreviewCore
import XCTest

/// Apple's forms as previewd reads them: both chart feeds, audiobooks as tracks, what an answer
/// held in words, Retry-After in both of its forms, storefront codes.
final class AppleFormsTests: XCTestCase {
    private func chart(_ json: String) throws -> ChartFeed {
        try JSONDecoder().decode(ChartFeed.self, from: Data(json.utf8))
    }

    func testTheCurrentChartFeedIsReadInRankOrder() throws {
        let feed = try chart(#"""
        {"feed": {"title": "Top Songs", "results": [
          {"artistName": "Mariah Carey", "id": "585972803", "name": "All I Want For Christmas Is You", "releaseDate": "1994-10-29",
           "kind": "songs", "artistId": "91853", "artistUrl": "https://music.apple.com/us/artist/mariah-carey/91853",
           "contentAdvisoryRating": "", "artworkUrl100": "https://is4-ssl.mzstatic.com/x/100x100bb.jpg",
           "genres": [{"genreId": "8", "name": "Holiday"}, {"genreId": "34", "name": "Music"}],
           "url": "https://music.apple.com/us/album/all-i-want-for-christmas-is-you/585972750?i=585972803"},
          {"id": 17, "name": "a numeric id"},
          {"name": "no id"}
        ]}}
        """#)
        XCTAssertEqual(feed.format, .current)
        XCTAssertEqual(feed.tracks.map(\.trackId), [585972803, 17])
        XCTAssertEqual(feed.skipped, 1)
        let first = feed.tracks[0]
        XCTAssertEqual(first.trackName, "All I Want For Christmas Is You")
        XCTAssertEqual(first.artistId, 91853)
        XCTAssertEqual(first.primaryGenreName, "Holiday", "the song's genre, not the store's umbrella")
        XCTAssertNil(first.previewUrl, "v2 has no preview links: the lookup gives them")
        XCTAssertNil(first.trackTimeMillis)
    }

    func testAFeedPreviewdCannotReadIsRefusedNotAnEmptyChart() {
        for body in [#"{"feed": {"title": "nothing"}}"#, #"{"feed": {"results": {"id": "1"}}}"#, #"{"feed": {"results": [1, "x", {}]}}"#,
                     #"{"feed": {"entry": 42}}"#, #"{"entries": []}"#] {
            XCTAssertThrowsError(try chart(body), body)
        }
        XCTAssertEqual(try chart(#"{"feed": {"results": []}}"#).tracks.count, 0, "an empty list is an empty chart")
    }

    func testAudiobooksGoByTheirCollectionIdentity() throws {
        let body = #"{"resultCount": 1, "results": [{"wrapperType": "audiobook", "artistId": 1, "collectionId": 366048490,"#
            + #" "artistName": "Kurt Bruner and Jim Ware", "collectionName": "Finding God (Unabridged)", "collectionPrice": 11.99,"#
            + #" "previewUrl": "https://audio.example/book.m4a"}]}"#
        let book = try XCTUnwrap(JSONDecoder().decode(SearchResponse.self, from: Data(body.utf8)).results.first)
        XCTAssertEqual(book.trackId, 366048490)
        XCTAssertEqual(book.trackName, "Finding God (Unabridged)")
        XCTAssertEqual(book.artistName, "Kurt Bruner and Jim Ware", "the author as the artist")
        XCTAssertEqual(book.trackPrice, 11.99)
        XCTAssertNil(book.unplayableReason)
        XCTAssertEqual(book.kindName, "audiobook")
    }

    func testWhatAnAnswerHeldIsCountedAndNamed() {
        func track(_ wrapper: String?, _ kind: String?, preview: String? = nil) -> Track {
            var t = Track(trackId: 1, trackName: "t", previewUrl: preview)
            t.wrapperType = wrapper
            t.kind = kind
            return t
        }
        func report(_ results: [Track]) -> CatalogReport {
            let notQueued = results.indices.filter { results[$0].unplayableReason != nil }
                .map { CatalogReport.NotQueued(result: $0, reason: results[$0].unplayableReason!) }
            let status = StatusReport(state: .stopped, index: nil, positionMs: 0, durationMs: nil, queueLength: 0, track: nil, error: nil, output: "pulse")
            return CatalogReport(results: results, firstQueueIndex: nil, notQueued: notQueued, skipped: 0, requests: [], album: nil,
                                 mayHaveMore: false, status: status)
        }
        let song = track("track", "song", preview: "https://a.example/s.m4a")
        let mixed = report([song, track("track", "podcast"), song, track(nil, "ebook")])
        XCTAssertEqual(mixed.previewSentence,
                       "2 of 4 results have a preview: 1 podcast, 1 ebook have none (previewd plays the store's previews, and a podcast has none)")
        XCTAssertNil(report([song]).previewSentence)
        XCTAssertEqual(report([track("artist", nil), track("collection", nil), track("collection", nil)]).previewSentence,
                       "none of the 3 results has a preview: 1 artist, 2 albums have none")
        XCTAssertEqual(report([track("software", "software")]).previewSentence, "the result has no preview: 1 app has none")
        XCTAssertEqual(report([song, track("track", "song", preview: "file:///etc/passwd")]).previewSentence,
                       "1 of 2 results has a preview: 1 has a preview previewd may not fetch")
        XCTAssertEqual(track("artist", nil).unplayableReason, "an artist, not a track")
        XCTAssertEqual(track("track", "podcast").unplayableReason, "a podcast has no preview (previewd plays the store's previews)")
        XCTAssertEqual(CatalogReport.count(1), "1 result")
        XCTAssertEqual(CatalogReport.count(0), "0 results")
    }

    func testRetryAfterInBothForms() {
        let now = 784_111_777   // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryAfter.seconds("120", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds(" 7 ", now: now), 7)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:51:37 GMT", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds("Sunday, 06-Nov-94 08:50:37 GMT", now: now), 60)
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:49:47 1994", now: now), 10)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0, "a time gone by: no wait")
        XCTAssertEqual(RetryAfter.seconds("99999999999999999999", now: now), 999_999_999, "too long to count is very long, not short")
        XCTAssertEqual(RetryAfter.epochSeconds(ofHTTPDate: "Thu, 01 Jan 1970 00:00:00 GMT"), 0)
        XCTAssertEqual(RetryAfter.epochSeconds(ofHTTPDate: "Tue, 29 Feb 2028 12:00:00 GMT"), 1_835_438_400)
        for bad in ["", "soon", "-5", "1.5", "Sun, 06 Nov 1994 25:00:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"] {
            XCTAssertNil(RetryAfter.seconds(bad, now: now), bad)
        }
    }

    func testStorefrontsAreISOCodes() {
        XCTAssertTrue(CountryCode.isValid("US"))
        XCTAssertTrue(CountryCode.isValid("gb"))
        XCTAssertFalse(CountryCode.isValid("UK"), "the United Kingdom's code is GB")
        XCTAssertFalse(CountryCode.isValid("ZZ"))
        XCTAssertFalse(CountryCode.isValid("U1"))
        XCTAssertEqual(CountryCode.assigned.count, 249)
        XCTAssertTrue(CountryCode.problem("zz").contains("ISO 3166-1"))
    }
}
