import Foundation
import ITunesStandIn
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

final class PreviewFetcherTests: StandInTestCase {
    private func contents(_ bytes: PreviewBytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes.receivedCount)
        _ = out.withUnsafeMutableBytes { bytes.read(into: $0.baseAddress!, at: 0, maxLength: $0.count) }
        return out
    }

    func testStreamsTheExactBytesOfThePreview() throws {
        let fetcher = PreviewFetcher()
        defer { fetcher.shutdown() }
        for name in ["tone-440", "tone-880"] {
            let bytes = PreviewBytes()
            fetcher.fetch("\(server.baseURL)/previews/\(name).m4a", into: bytes)
            waitUntilSettled(bytes)
            XCTAssertNil(bytes.error)
            XCTAssertTrue(bytes.isComplete)
            XCTAssertEqual(contents(bytes), [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/\(name).m4a"))))
        }
    }

    func testHTTPErrorsAndDropsFailTheSlotWithAClearError() {
        let fetcher = PreviewFetcher()
        defer { fetcher.shutdown() }
        let missing = PreviewBytes()
        fetcher.fetch("\(server.baseURL)/previews/missing-file.m4a", into: missing)
        waitUntilSettled(missing)
        XCTAssertEqual(missing.error, .httpStatus(404, url: "\(server.baseURL)/previews/missing-file.m4a"))

        server.setFault(.status(500), forPathPrefix: "/previews/tone-660")
        let broken = PreviewBytes()
        fetcher.fetch("\(server.baseURL)/previews/tone-660.m4a", into: broken)
        waitUntilSettled(broken)
        XCTAssertEqual(broken.error?.message.contains("HTTP 500"), true)

        server.setFault(.dropAfter(bytes: 10_000), forPathPrefix: "/previews/tone-550")
        let dropped = PreviewBytes()
        fetcher.fetch("\(server.baseURL)/previews/tone-550.m4a", into: dropped)
        waitUntilSettled(dropped)
        XCTAssertNotNil(dropped.error, "a body cut short must not look complete")
        XCTAssertFalse(dropped.isComplete)
    }

    func testRefusesNonHTTPURLsWithoutAnyIO() {
        let fetcher = PreviewFetcher()
        defer { fetcher.shutdown() }
        for url in ["file:///etc/passwd", "/etc/passwd", "concat:/etc/passwd|/etc/hosts"] {
            let bytes = PreviewBytes()
            fetcher.fetch(url, into: bytes)
            XCTAssertEqual(bytes.error, .refusedURL(url))
        }
        XCTAssertTrue(server.requestLog.isEmpty)
    }

    func testCancelStopsADownload() {
        server.setFault(.throttle(bytesPerSecond: 2_000), forPathPrefix: "/previews/")
        let fetcher = PreviewFetcher()
        defer { fetcher.shutdown() }
        let bytes = PreviewBytes()
        let handle = fetcher.fetch("\(server.baseURL)/previews/tone-440.m4a", into: bytes)
        usleep(200_000)
        handle.cancel()
        XCTAssertEqual(bytes.error, .cancelled)
    }
}
