import Foundation
import ITunesStandIn
@testable import PreviewEngine
import PreviewCore
import PreviewTestSupport
import XCTest

/// The catalog client against the stand-in over real HTTP: each query form's request, lookup, the
/// chart, paging, the cache and the governor, and every error class.
final class ITunesClientTests: StandInTestCase {
    private func client(timeout: TimeInterval = 10, perMinute: Int = 600, cache: Double = 300) -> ITunesClient {
        ITunesClient(base: URL(string: server.baseURL)!, country: "US", timeout: timeout, callsPerMinute: perMinute, cacheSeconds: cache)
    }

    func testSearchBuildsApplesQueryAndDecodesTracks() async throws {
        let page = try await client().search(CatalogQuery(term: "sine waves", limit: 3))
        XCTAssertEqual(page.results.map(\.trackId), [1001, 1002, 1003])
        XCTAssertEqual(page.results.first?.previewUrl, "\(server.baseURL)/previews/tone-440.m4a")
        let request = try XCTUnwrap(server.requestLog.last)
        XCTAssertTrue(request.hasPrefix("GET /search?term=sine%20waves&media=music&entity=song&limit=3&country=US "), request)
    }

    func testStructuredFormsAndPaging() async throws {
        let c = client()
        let songs = try await c.search(CatalogQuery(artist: "sine waves", song: "eighty"))
        XCTAssertEqual(songs.results.map(\.trackId), [1003])
        XCTAssertTrue(server.requestLog.last!.contains("term=sine%20waves%20eighty&media=music&entity=song"), server.requestLog.last!)
        let works = try await c.search(CatalogQuery(artist: "square roots"))
        XCTAssertEqual(works.results.map(\.trackId), [2001, 2002, 2003])
        XCTAssertTrue(server.requestLog.last!.hasPrefix("GET /search?term=square%20roots&media=music&entity=song&attribute=artistTerm&limit=50&country=US "),
                      server.requestLog.last!)
        let byName = try await c.search(CatalogQuery(artist: "quiet hours"))
        XCTAssertEqual(byName.results.count, 0, "an artist search does not match album titles")
        let second = try await c.search(CatalogQuery(term: "sine", limit: 2, offset: 2))
        XCTAssertEqual(second.results.map(\.trackId), [1003, 1004])
        XCTAssertTrue(server.requestLog.last!.contains("limit=2&offset=2"))
    }

    func testArtistAndAlbumQueuesTheAlbumsSongsThroughLookup() async throws {
        let page = try await client().search(CatalogQuery(artist: "sine waves", album: "short tones"))
        XCTAssertEqual(page.album, "Short Tones")
        XCTAssertEqual(page.results.map(\.trackId), [3001, 3002])
        XCTAssertEqual(page.requests.count, 2)
        let log = server.requestLog.suffix(2)
        XCTAssertTrue(log.first!.contains("/search?term=sine%20waves%20short%20tones&media=music&entity=album"), log.first!)
        XCTAssertTrue(log.last!.hasPrefix("GET /lookup?id=703&entity=song&country=US "), log.last!)
    }

    func testLookupOfAlbumArtistAndTrackIds() async throws {
        let c = client()
        let album = try await c.lookup(LookupQuery(ids: [702]))
        XCTAssertEqual(album.results.first?.wrapperType, "collection")
        XCTAssertEqual(album.results.dropFirst().map(\.trackId), [2001, 2002, 2003])
        let artist = try await c.lookup(LookupQuery(ids: [501], limit: 2, sort: "recent"))
        XCTAssertEqual(artist.results.first?.wrapperType, "artist")
        XCTAssertEqual(artist.results.first?.artistLinkUrl, "https://music.apple.com/us/artist/501?uo=4")
        XCTAssertTrue(server.requestLog.last!.contains("/lookup?id=501&entity=song&limit=2&sort=recent&country=US"))
        let track = try await c.lookup(LookupQuery(ids: [1002]))
        XCTAssertEqual(track.results.map(\.trackId), [1002])
    }

    func testChartRowsAreTheLookedUpSongsInChartOrder() async throws {
        let c = client()
        let page = try await c.topSongs(ChartQuery(limit: 4, country: "gb", genre: 21))
        XCTAssertEqual(page.results.map(\.trackId), [1001, 1002, 1003, 1004])
        XCTAssertTrue(page.results.allSatisfy { $0.previewUrl != nil })
        XCTAssertEqual(page.results.map(\.trackTimeMillis), [8000, 8000, 8000, 8000], "the songs' own lengths, not the previews' 30 s")
        XCTAssertEqual(page.results[0].collectionName, "Pure Tones", "every row carries the full record")
        let log = server.requestLog
        XCTAssertTrue(log[log.count - 2].hasPrefix("GET /gb/rss/topsongs/limit=4/genre=21/json "), log[log.count - 2])
        XCTAssertTrue(log.last!.hasPrefix("GET /lookup?id=1001,1002,1003,1004&country=GB "), log.last!)
        XCTAssertEqual(c.callCount, 2)
    }

    func testTheCurrentChartFormStandsInForTheLegacyOne() async throws {
        let c = client()
        server.setFault(.status(404), forPathPrefix: "/us/rss/topsongs/")
        let page = try await c.topSongs(ChartQuery(limit: 3))
        XCTAssertEqual(page.results.map(\.trackId), [1001, 1002, 1003])
        XCTAssertEqual(page.results.map(\.trackTimeMillis), [8000, 8000, 8000])
        XCTAssertEqual(page.requests.count, 3)
        XCTAssertTrue(page.requests[1].hasSuffix("/api/v2/us/music/most-played/10/songs.json"), page.requests[1])
        // Next time the v2 form is asked first (its answer is cached), and the songs are in the track memory: no call.
        server.setFault(nil, forPathPrefix: "/us/rss/topsongs/")
        let calls = c.callCount
        let again = try await c.topSongs(ChartQuery(limit: 2))
        XCTAssertEqual(again.results.map(\.trackId), [1001, 1002])
        XCTAssertEqual(again.results.map(\.trackTimeMillis), [8000, 8000])
        XCTAssertEqual(c.callCount, calls)
        XCTAssertEqual(again.requests.count, 1, "the feed alone")
        XCTAssertTrue(again.requests[0].contains("/api/v2/us/"), again.requests[0])
        // A feed in neither form is an unexpected answer, not an empty chart.
        server.setFault(.body(Array(#"{"feed": {"title": "nothing"}}"#.utf8), contentType: "application/json"), forPathPrefix: "/")
        do {
            _ = try await client().topSongs(ChartQuery(limit: 5))
            XCTFail("an unreadable chart gave rows")
        } catch {
            guard case .invalidData(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("neither of Apple's forms"), why)
        }
        server.setFault(nil, forPathPrefix: "/")
    }

    /// The track memory: what an answer carried is added by id with no call; ids not seen are
    /// looked up together, one call however many, and ids the catalog lacks are absent.
    func testTracksBySeenIdCostNoCallAndTheUnknownOneLookup() async throws {
        let c = client(cache: 0)
        _ = try await c.search(CatalogQuery(term: "sine", limit: 3))
        XCTAssertEqual(c.callCount, 1)
        let seen = try await c.tracks([1003, 1001, 1002])
        XCTAssertEqual(Set(seen.keys), [1001, 1002, 1003])
        XCTAssertEqual(c.callCount, 1, "seen tracks cost no call")
        let mixed = try await c.tracks([1001, 2001, 2002, 999_999, 2001])
        XCTAssertEqual(Set(mixed.keys), [1001, 2001, 2002])
        XCTAssertEqual(c.callCount, 2, "the unknown ids in one lookup")
        XCTAssertTrue(server.requestLog.last!.hasPrefix("GET /lookup?id=2001,2002,999999&country=US "), server.requestLog.last!)
        _ = try await c.tracks([2001, 2002])
        XCTAssertEqual(c.callCount, 2, "what a lookup answered is remembered too")
        XCTAssertEqual(c.memory.report.entries, 5)
    }

    func testRepeatedQueriesComeFromTheCache() async throws {
        let c = client()
        _ = try await c.search(CatalogQuery(term: "sine"))
        _ = try await c.search(CatalogQuery(term: "sine"))
        XCTAssertEqual(c.callCount, 1)
        XCTAssertEqual(server.requestLog.filter { $0.contains("/search") }.count, 1)
        _ = try await c.search(CatalogQuery(term: "sine", limit: 3))
        XCTAssertEqual(c.callCount, 2, "a different query is a different key")
        let uncached = client(cache: 0)
        _ = try await uncached.search(CatalogQuery(term: "sine"))
        _ = try await uncached.search(CatalogQuery(term: "sine"))
        XCTAssertEqual(uncached.callCount, 2)
    }

    func testTheGovernorHoldsCallsOverItsRate() async throws {
        let c = client(perMinute: 2, cache: 0)
        _ = try await c.search(CatalogQuery(term: "sine"))
        _ = try await c.search(CatalogQuery(term: "sine"))
        do {
            _ = try await c.search(CatalogQuery(term: "sine"))
            XCTFail("a third call within the minute went out")
        } catch {
            guard case .rateLimited(false, let after?) = error else { return XCTFail("\(error)") }
            XCTAssertGreaterThan(after, 2)
            XCTAssertEqual(error.controlError.code, .rateLimited)
        }
        XCTAssertEqual(c.callCount, 2)
    }

    func testGovernorRefillsAtItsRate() {
        let clock = ManualClock()
        let governor = RateGovernor(perMinute: 20) { clock.now }
        for _ in 0..<20 { XCTAssertNil(governor.take()) }
        XCTAssertEqual(governor.take() ?? 0, 3, accuracy: 0.001, "one token every 3 s")
        clock.now += 3
        XCTAssertNil(governor.take())
        XCTAssertNotNil(governor.take())
    }

    func testEveryErrorClassIsTypedWithAClearMessage() async {
        let c = client(timeout: 1, cache: 0)
        let cases: [(StandInFault, (CatalogError) -> Bool)] = [
            (.status(500), { $0 == .httpStatus(500) }),
            (.status(404), { $0 == .httpStatus(404) }),
            (.status(403), { if case .rateLimited(true, _) = $0 { return true }; return false }),
            (.retryAfter(status: 429, seconds: 42), { $0 == .rateLimited(byAPI: true, retryAfterSeconds: 42) }),
            (.html, { if case .invalidData(let why) = $0 { return why.contains("HTML") }; return false }),
            (.body(Array(#"{"resultCount": 3, "results": [{"trackId": 1"#.utf8), contentType: "text/javascript"),
             { if case .invalidData(let why) = $0 { return why.contains("not JSON") }; return false }),
            (.body(Array(#"{"answer": 42}"#.utf8), contentType: "text/javascript"),
             { if case .invalidData(let why) = $0 { return why.contains("shape") }; return false }),
            (.body([], contentType: "text/javascript"), { if case .invalidData = $0 { return true }; return false }),
            (.delay(milliseconds: 2500), { $0 == .timeout(seconds: 1) }),
        ]
        for (fault, matches) in cases {
            server.setFault(fault, forPathPrefix: "/search")
            do {
                _ = try await c.search(CatalogQuery(term: "sine"))
                XCTFail("\(fault) gave results")
            } catch {
                XCTAssertTrue(matches(error), "\(fault): \(error)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        server.setFault(nil, forPathPrefix: "/search")
        server.stop()
        do {
            _ = try await c.search(CatalogQuery(term: "sine"))
            XCTFail("a stopped server answered")
        } catch {
            guard case .offline = error else { return XCTFail("\(error)") }
            XCTAssertEqual(error.message, "offline: the iTunes API (\(server.baseURL.dropFirst("http://".count))) does not answer (connection refused)")
            XCTAssertEqual(error.controlError.code, .offline)
        }
    }

    func testAHostThatDoesNotResolveIsOffline() async {
        // .invalid never resolves (RFC 6761); without a resolver at all the lookup may time out instead.
        let client = ITunesClient(base: URL(string: "http://previewd-test.invalid")!, timeout: 5, cacheSeconds: 0)
        do {
            _ = try await client.search(CatalogQuery(term: "sine"))
            XCTFail("an unresolvable host answered")
        } catch {
            switch error {
            case .offline, .timeout: XCTAssertFalse(error.message.isEmpty)
            default: XCTFail("\(error)")
            }
        }
    }

    func testHugeAndDeeplyNestedAnswersAreRefusedNotFatal() async {
        let c = client(cache: 0)
        let deep = Array(repeating: UInt8(ascii: "["), count: 10_000) + Array(repeating: UInt8(ascii: "]"), count: 10_000)
        let big = Array(#"{"resultCount":0,"results":[],"pad":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 11 << 20) + Array(#""}"#.utf8)
        for body in [deep, Array(#"{"resultCount":1,"results":"#.utf8) + deep + [UInt8(ascii: "}")], big] {
            server.setFault(.body(body, contentType: "text/javascript"), forPathPrefix: "/search")
            do {
                _ = try await c.search(CatalogQuery(term: "sine"))
                XCTFail("accepted")
            } catch {
                guard case .invalidData = error else { return XCTFail("\(error)") }
            }
        }
    }

    func testMalformedEntriesAreCountedNotFatal() async throws {
        let body = #"{"resultCount":3,"results":[{"trackId":1,"trackName":"ok","previewUrl":"https://x.example/1.m4a"},17,{"trackId":"x"}]}"#
        server.setFault(.body(Array(body.utf8), contentType: "text/javascript"), forPathPrefix: "/search")
        let page = try await client().search(CatalogQuery(term: "sine"))
        XCTAssertEqual(page.results.map(\.trackId), [1])
        XCTAssertEqual(page.skipped, 2)
    }
}

/// A clock a test moves by hand.
private final class ManualClock: @unchecked Sendable {
    var now: Double = 1000
}
