import Foundation
import ITunesStandIn
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

final class ITunesClientTests: StandInTestCase {
    func testSearchBuildsApplesQueryAndDecodesTracks() async throws {
        let client = ITunesClient(base: URL(string: server.baseURL)!, country: "US")
        let tracks = try await client.searchSongs(term: "sine waves", limit: 3)
        XCTAssertEqual(tracks.map(\.trackId), [1001, 1002, 1003])
        XCTAssertEqual(tracks.first?.previewUrl, "\(server.baseURL)/previews/tone-440.m4a")
        let request = try XCTUnwrap(server.requestLog.last)
        for part in ["GET /search?", "term=sine%20waves", "media=music", "entity=song", "limit=3", "country=US"] {
            XCTAssertTrue(request.contains(part), "\(part) missing from \(request)")
        }
    }

    func testNoResultsIsAnEmptyListNotAnError() async throws {
        let client = ITunesClient(base: URL(string: server.baseURL)!)
        let tracks = try await client.searchSongs(term: "nothing matches this", limit: 10)
        XCTAssertEqual(tracks, [])
    }

    func testFailuresAreTypedWithAClearMessage() async {
        let client = ITunesClient(base: URL(string: server.baseURL)!)
        server.setFault(.status(500), forPathPrefix: "/search")
        await assertFails(client, .httpStatus(500))
        server.setFault(.html, forPathPrefix: "/search")
        do {
            _ = try await client.searchSongs(term: "sine", limit: 5)
            XCTFail("HTML decoded as a search answer")
        } catch {
            guard case .invalidResponse = error else { return XCTFail("\(error)") }
        }
        server.stop()
        do {
            _ = try await client.searchSongs(term: "sine", limit: 5)
            XCTFail("a stopped server answered")
        } catch {
            guard case .unreachable = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.message.contains(server.baseURL), error.message)
        }
    }

    private func assertFails(_ client: ITunesClient, _ expected: CatalogError) async {
        do {
            _ = try await client.searchSongs(term: "sine", limit: 5)
            XCTFail("expected \(expected)")
        } catch {
            XCTAssertEqual(error, expected)
        }
    }
}
