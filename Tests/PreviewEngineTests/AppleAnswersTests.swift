import Foundation
import ITunesStandIn
@testable import PreviewEngine
import PreviewCore
import PreviewTestSupport
import XCTest

/// Apple's real answers, as public projects saved them (`Tests/Fixtures/apple`, sources in its
/// README), served by the stand-in over real HTTP: for each, what previewd keeps (queues), drops
/// and says. Nothing in them fails a whole answer.
final class AppleAnswersTests: StandInTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.addRecordings(in: Fixtures.directory.appendingPathComponent("apple"))
    }

    private func client() -> ITunesClient {
        ITunesClient(base: URL(string: server.baseURL)!, country: "US", timeout: 10, callsPerMinute: 600, cacheSeconds: 300)
    }

    /// What previewd makes of `page`: the report a listener gets (kept: the queue's ids).
    private func verdict(_ page: CatalogPage) -> (kept: [Int], dropped: [String], said: String?) {
        var policy = PlayerCore.Policy()
        policy.localOrigin = origin
        let sorted = PlayerCore(policy: policy).sortOut(page.results)
        let status = StatusReport(state: .stopped, index: nil, positionMs: 0, durationMs: nil, queueLength: 0, track: nil, error: nil, output: "pulse")
        let report = CatalogReport(results: page.results, firstQueueIndex: nil, notQueued: sorted.notQueued, skipped: page.skipped,
                                   requests: page.requests, album: page.album, mayHaveMore: false, status: status)
        return (sorted.playable.compactMap(\.trackId), sorted.notQueued.map(\.reason), report.previewSentence)
    }

    func testSongsKeepTheirOwnRecord() async throws {
        let page = try await client().search(CatalogQuery(term: "abba"))
        let (kept, dropped, said) = verdict(page)
        XCTAssertEqual(kept, [1422648513, 1422648821, 1422648844])
        XCTAssertEqual(dropped, [])
        XCTAssertNil(said)
        XCTAssertEqual(page.results.map(\.trackTimeMillis), [231844, 212304, 294806])
        XCTAssertEqual(page.results[0].previewUrl, "\(server.baseURL)/previews/tone-440.m4a", "rewritten to a tone that plays")
    }

    func testFilmsAndMusicVideosPlayTheirSound() async throws {
        let films = try await client().search(CatalogQuery(term: "jack johnson"))
        XCTAssertEqual(Set(films.results.map(\.kindName)), ["song", "film"])
        XCTAssertEqual(verdict(films).kept.count, 5)
        XCTAssertNil(verdict(films).said)
        // Two ids asked, answered in an order of Apple's own (the video first): kept as Apple sent them.
        let pair = try await client().lookup(LookupQuery(ids: [335627698, 335628615], entity: nil))
        XCTAssertEqual(pair.results.map(\.kindName), ["music video", "song"])
        XCTAssertEqual(verdict(pair).kept, [335628615, 335627698])
    }

    func testAnAudiobookPlaysUnderItsAuthor() async throws {
        let page = try await client().search(CatalogQuery(term: "finding god", media: "audiobook"))
        XCTAssertTrue(server.requestLog.last!.contains("media=audiobook"), server.requestLog.last!)
        let (kept, dropped, said) = verdict(page)
        XCTAssertEqual(kept, [366048490], "its collectionId is its id")
        XCTAssertEqual(dropped, [])
        XCTAssertNil(said)
        XCTAssertEqual(page.results[0].displayName, "Finding God in The Lord of the Rings (Unabridged) — Kurt Bruner and Jim Ware")
    }

    func testAnAudiobookAnsweredOnceIsAddedByItsIdWithoutACall() async throws {
        let c = client()
        _ = try await c.search(CatalogQuery(term: "finding god", media: "audiobook"))
        let calls = c.callCount
        let found = try await c.tracks([366048490])
        XCTAssertEqual(found[366048490]?.trackName, "Finding God in The Lord of the Rings (Unabridged)")
        XCTAssertEqual(c.callCount, calls, "the track memory had it")
    }

    func testWhatHasNoPreviewIsCountedAndNamed() async throws {
        let mixed = try await client().search(CatalogQuery(term: "store", media: "all"))
        let (kept, dropped, said) = verdict(mixed)
        XCTAssertEqual(kept, [1422648513, 366048490], "the song and the audiobook")
        XCTAssertEqual(dropped, ["a podcast has no preview (previewd plays the store's previews)", "no preview", "an app, not a track"])
        XCTAssertEqual(said, "2 of 5 results have a preview: 1 podcast, 1 ebook, 1 app have none (previewd plays the store's previews, and a podcast has none)")

        let podcast = try await client().search(CatalogQuery(term: "angular air", media: "podcast"))
        XCTAssertEqual(verdict(podcast).said, "the result has no preview: 1 podcast has none (previewd plays the store's previews, and a podcast has none)")
    }

    func testArtistsAndAlbumsAreNamedNotPlayed() async throws {
        let artists = try await client().search(CatalogQuery(term: "slayer", entity: "musicArtist", attribute: "artistTerm"))
        XCTAssertEqual(verdict(artists).said, "none of the 3 results has a preview: 3 artists have none")
        XCTAssertEqual(Set(verdict(artists).dropped), ["an artist, not a track"])

        // A lookup whose first result is the artist, then the artist's albums (entity=album), in the GB store.
        let albums = try await client().lookup(LookupQuery(ids: [414425], entity: "album", country: "GB"))
        XCTAssertTrue(server.requestLog.last!.contains("/lookup?id=414425&entity=album&country=GB"), server.requestLog.last!)
        XCTAssertEqual(albums.results.first?.wrapperType, "artist")
        XCTAssertEqual(verdict(albums).said, "none of the 4 results has a preview: 1 artist, 3 albums have none")

        let artist = try await client().lookup(LookupQuery(ids: [3996865], entity: nil))   // Apple's leading blank lines
        XCTAssertEqual(artist.results.map(\.artistName), ["Metallica"])
        XCTAssertEqual(verdict(artist).dropped, ["an artist, not a track"])
    }

    func testAnAlbumOfAnotherStorefrontQueuesItsSongs() async throws {
        let page = try await client().lookup(LookupQuery(ids: [1038991417], country: "GB"))
        let (kept, _, said) = verdict(page)
        XCTAssertEqual(page.results.first?.collectionName, "Reign In Blood")
        XCTAssertEqual(kept.count, 3)
        XCTAssertEqual(page.results.dropFirst().map(\.currency), ["GBP", "GBP", "GBP"])
        XCTAssertEqual(said, "3 of 4 results have a preview: 1 album has none")
        let none = try await client().lookup(LookupQuery(ids: [999666], country: "GB"))
        XCTAssertEqual(none.results.count, 0, "resultCount 0 is an empty answer, not an error")
        XCTAssertEqual(none.skipped, 0)
    }

    func testTheLegacyChartIsLookedUpInOneCall() async throws {
        let c = client()
        let page = try await c.topSongs(ChartQuery(limit: 3, country: "ca"))
        XCTAssertEqual(page.results.map(\.trackId), [1552791427, 1552739372, 1544839502], "the chart's order")
        XCTAssertEqual(page.requests.count, 2, "the feed, then one lookup")
        XCTAssertTrue(page.requests[1].hasSuffix("/lookup?id=1552791427,1552739372,1544839502&country=CA"), page.requests[1])
        // The lookup knows none of them here: the feed's own entries stand, with their previews and no invented length.
        XCTAssertEqual(verdict(page).kept.count, 3)
        XCTAssertEqual(page.results.map(\.trackTimeMillis), [nil, nil, nil], "im:duration is the preview's 30 s, not the song's length")
        XCTAssertEqual(page.results[0].collectionName, "Fearless (Taylor's Version)")
    }

    func testTheCurrentChartIsAskedWhenTheLegacyOneIsGone() async throws {
        let c = client()
        let page = try await c.topSongs(ChartQuery(limit: 10, country: "ca"))
        XCTAssertEqual(page.requests.count, 3, "the legacy feed (404), the v2 feed, the lookup")
        XCTAssertTrue(page.requests[1].hasSuffix("/api/v2/ca/music/most-played/10/songs.json"), page.requests[1])
        XCTAssertEqual(page.results.map(\.collectionName), ["4REAL 4REAL", "Rocketman (Music from the Motion Picture)", "Paranoia"])
        XCTAssertEqual(verdict(page).said, "none of the 3 results has a preview: 3 albums have none")
        // The form that answered is asked first next time (and the answers come from the cache).
        let calls = c.callCount
        _ = try await c.topSongs(ChartQuery(limit: 10, country: "ca"))
        XCTAssertEqual(c.callCount, calls, "a chart asked again costs no call")
    }

    /// The error a search for `term` ends in (nil: it gave results).
    private func failure(searching term: String) async -> CatalogError? {
        do {
            _ = try await client().search(CatalogQuery(term: term))
            return nil
        } catch {
            return error
        }
    }

    func testApplesReasonsReachTheListener() async throws {
        let refusedFound = await failure(searching: "bad request")
        let refused = try XCTUnwrap(refusedFound)
        XCTAssertEqual(refused, .refused(status: 400, reason: "Invalid value(s) for key(s): [resultEntity] (previewd sent entity=song)"))
        XCTAssertEqual(refused.message, "the iTunes API refused the request (HTTP 400): Invalid value(s) for key(s): [resultEntity] (previewd sent entity=song)")
        XCTAssertEqual(refused.controlError.code, .httpStatus)
        let limitedFound = await failure(searching: "slow down")
        let limited = try XCTUnwrap(limitedFound)
        XCTAssertEqual(limited, .rateLimited(byAPI: true, retryAfterSeconds: 120), "a 403 with no body, Retry-After in seconds")
        XCTAssertTrue(limited.message.contains("Apple asks to wait 2 min"), limited.message)
    }

    func testRetryAfterAsADateOnA503() async throws {
        let inNinety = Self.httpDate(Int(Date().timeIntervalSince1970) + 90)
        try server.addRecording(StandInRecording(path: "/search", query: ["term": "busy"], status: 503, headers: ["Retry-After: \(inNinety)"]),
                                from: Fixtures.directory)
        let busyFound = await failure(searching: "busy")
        let busy = try XCTUnwrap(busyFound)
        guard case .unavailable(503, let after?) = busy else { return XCTFail("\(busy)") }
        XCTAssertTrue((80...90).contains(after), "\(after)")
        XCTAssertTrue(busy.message.contains("Apple asks to wait"), busy.message)
        try server.addRecording(StandInRecording(path: "/search", query: ["term": "very busy"], status: 429, headers: ["Retry-After: 86400"]),
                                from: Fixtures.directory)
        let longFound = await failure(searching: "very busy")
        let long = try XCTUnwrap(longFound)
        XCTAssertTrue(long.message.hasSuffix("Apple asks to wait over 1 h"), long.message)
    }

    /// `seconds` since 1970 as an IMF-fixdate.
    private static func httpDate(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        _ = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(cString: buffer)
    }
}
