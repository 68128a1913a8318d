import Foundation
import ITunesStandIn
import PreviewCore
import PreviewEngine
import PreviewTestSupport
import XCTest

/// The API's origin gets the same guarantee as the CDN's (`PreconnectTests`): previewd started by its
/// socket probes the API (`WarmPaths.startedBySocket`) while the command that started it, most
/// likely a search, is on its way, and the search never waits on, or rides on, a probe's connection
/// that the server then closes. Checked at the server on loopback, as there: the stand-in answers the
/// probe only once the search has reached it (had the search waited for the probe, it never would
/// have), and it numbers the connections; never on time.
final class APIPreconnectTests: StandInTestCase {
    /// The catalog as previewd wires it: one HTTP client, warm paths for the API's origin (the stand-in
    /// serves the previews too, so that is the one origin probed).
    private func catalog() -> (ITunesClient, WarmPaths, HTTPClient) {
        let http = HTTPClient()
        let warm = WarmPaths(apiBase: server.baseURL, http: http, localOrigin: origin)
        return (ITunesClient(base: URL(string: server.baseURL)!, cacheSeconds: 0, http: http, warm: warm), warm, http)
    }

    /// A socket-activated start, then a search; returns the connections the probe and the search came on.
    private func searchAfterActivation(_ answer: StandInProbeAnswer, racing: Bool, file: StaticString = #filePath,
                                       line: UInt = #line) async throws -> (probe: Int, search: Int) {
        server.setProbeAnswer(answer, after: racing ? "GET /search?" : nil)
        let (client, warm, http) = catalog()
        defer { http.shutdown() }
        let exchanges = LiveObjects.httpExchanges.count
        warm.startedBySocket()
        XCTAssertTrue(server.waitForRequest(timeout: Patience.seconds(10)) { $0.hasPrefix("HEAD / ") }, "the API's origin is probed", file: file, line: line)
        if !racing {   // the search comes once the client has ended the probe (its exchange released)
            eventually(interval: 0.001) { LiveObjects.httpExchanges.count <= exchanges }   // a hang guard
        }
        let page = try await client.search(CatalogQuery(term: "sine waves", limit: 3))
        XCTAssertEqual(page.results.map(\.trackId), [1001, 1002, 1003], file: file, line: line)
        let log = server.requestsWithConnections
        XCTAssertEqual(log.filter { $0.line.hasPrefix("HEAD ") }.count, 1, "one probe for the one origin: \(log)", file: file, line: line)
        XCTAssertEqual(log.filter { $0.line.hasPrefix("GET /search?") }.count, 1, "\(log)", file: file, line: line)
        let probe = try XCTUnwrap(log.first { $0.line.hasPrefix("HEAD / ") }, file: file, line: line)
        let search = try XCTUnwrap(log.first { $0.line.hasPrefix("GET /search?") }, file: file, line: line)
        return (probe.connection, search.connection)
    }

    func testASearchRacingTheAPIsProbeClosedWithA501IsNotHeldUp() async throws {
        let (probe, search) = try await searchAfterActivation(.closeWith501, racing: true)
        XCTAssertNotEqual(probe, search, "the search opened its own connection at once")
    }

    func testASearchRacingTheAPIsProbeNeverAnsweredIsNotHeldUp() async throws {
        let (probe, search) = try await searchAfterActivation(.silent, racing: true)
        XCTAssertNotEqual(probe, search)
    }

    func testASearchAfterTheAPIsProbeWasClosedWithA501GoesOnANewConnection() async throws {
        let (probe, search) = try await searchAfterActivation(.closeWith501, racing: false)
        XCTAssertNotEqual(probe, search, "the closed connection is not taken again")
    }

    func testTheAPIsProbeAnswered404LeavesItsConnectionToTheSearch() async throws {
        let (probe, search) = try await searchAfterActivation(.notFound, racing: false)
        XCTAssertEqual(probe, search, "the search went on the probe's connection")
    }
}
