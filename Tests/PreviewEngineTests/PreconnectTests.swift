import Foundation
import ITunesStandIn
import PreviewCore
import PreviewEngine
import PreviewTestSupport
import XCTest

/// A pre-connect never costs: a request for a probed origin never waits for the probe, whatever its
/// connection does (closed on the HEAD, 404 and kept, never answered, reset), and a probe's answer of
/// any status leaves its connection to the requests that follow. Checked at the server on loopback:
/// the stand-in answers the probe only once the preview request has reached it (had the request
/// waited for the probe's answer, it never would have), and it numbers the connections; never on time.
final class PreconnectTests: StandInTestCase {
    private var previewPath: String { "/previews/tone-440.m4a" }
    private var previewBytes: [UInt8] {
        Array(try! Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/tone-440.m4a")))
    }

    /// Probes the stand-in (answering `answer` once the preview request has come), then asks for
    /// the preview; returns the connections the probe and the preview request came on.
    private func previewWhileProbing(_ answer: StandInProbeAnswer, file: StaticString = #filePath,
                                     line: UInt = #line) async throws -> (probe: Int, preview: Int) {
        server.setProbeAnswer(answer, after: "GET \(previewPath)")
        let client = HTTPClient()
        defer { client.shutdown() }
        client.preconnect(server.baseURL + previewPath, localOrigin: origin)
        XCTAssertTrue(server.waitForRequest(timeout: Patience.seconds(10)) { $0.hasPrefix("HEAD / ") }, "the probe is under way", file: file, line: line)
        var request = HTTPRequest(url: server.baseURL + previewPath)
        request.localOrigin = origin
        let response = try await client.response(to: request, limit: 1 << 20)
        XCTAssertEqual(response.head.status, 200, file: file, line: line)
        XCTAssertEqual(response.body, previewBytes, "served whole while the probe was unanswered", file: file, line: line)
        let log = server.requestsWithConnections
        let probe = try XCTUnwrap(log.first { $0.line.hasPrefix("HEAD / ") }, file: file, line: line)
        let preview = try XCTUnwrap(log.first { $0.line.hasPrefix("GET \(previewPath)") }, file: file, line: line)
        return (probe.connection, preview.connection)
    }

    func testAProbeClosedWithA501DoesNotHoldUpTheRequest() async throws {
        let (probe, preview) = try await previewWhileProbing(.closeWith501)
        XCTAssertNotEqual(probe, preview, "the request opened its own connection at once")
    }

    func testAProbeAnswered404AndKeptDoesNotHoldUpTheRequest() async throws {
        let (probe, preview) = try await previewWhileProbing(.notFound)
        XCTAssertNotEqual(probe, preview)
    }

    func testAProbeNeverAnsweredDoesNotHoldUpTheRequest() async throws {
        let (probe, preview) = try await previewWhileProbing(.silent)
        XCTAssertNotEqual(probe, preview)
    }

    func testAProbeResetDoesNotHoldUpTheRequest() async throws {
        let (probe, preview) = try await previewWhileProbing(.reset)
        XCTAssertNotEqual(probe, preview)
    }

    func testAProbeAnswered200LeavesItsConnectionToTheRequest() async throws {
        try await previewAfterProbe(.ok)
    }

    func testAProbeAnswered404LeavesItsConnectionToTheRequest() async throws {
        try await previewAfterProbe(.notFound)
    }

    /// Probes the stand-in (answering `answer` at once), then, once the client has ended the probe,
    /// asks for the preview: it must go on the probe's connection, whatever the status.
    private func previewAfterProbe(_ answer: StandInProbeAnswer, file: StaticString = #filePath, line: UInt = #line) async throws {
        server.setProbeAnswer(answer)
        let client = HTTPClient()
        defer { client.shutdown() }
        let exchanges = LiveObjects.httpExchanges.count
        client.preconnect(server.baseURL + previewPath, localOrigin: origin)
        // Asked for once the client has ended the probe (its exchange released): the request then
        // finds the connection idle. (Asked for earlier, it races the probe on a connection of its
        // own: fine for the request, but not what this checks.)
        XCTAssertTrue(server.waitForRequest(timeout: Patience.seconds(10)) { $0.hasPrefix("HEAD / ") }, file: file, line: line)
        eventually(interval: 0.001) { LiveObjects.httpExchanges.count <= exchanges }   // a hang guard
        var request = HTTPRequest(url: server.baseURL + previewPath)
        request.localOrigin = origin
        let response = try await client.response(to: request, limit: 1 << 20)
        XCTAssertEqual(response.body, previewBytes, file: file, line: line)
        let log = server.requestsWithConnections
        XCTAssertEqual(log.map { String($0.line.prefix(4)) }, ["HEAD", "GET "], file: file, line: line)
        XCTAssertEqual(log.first?.connection, log.last?.connection, "the request went on the probe's connection", file: file, line: line)
    }
}
