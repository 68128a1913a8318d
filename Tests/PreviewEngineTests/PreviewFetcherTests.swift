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
        let fetcher = PreviewFetcher(localOrigin: origin)
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
        let fetcher = PreviewFetcher(localOrigin: origin)
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

        // A redirect loop: a clear error after the redirect limit, never a body that looks complete.
        let stubborn = PreviewFetcher(resumeBackoff: [0.05], localOrigin: origin)
        defer { stubborn.shutdown() }
        let redirectLoop = PreviewBytes()
        server.setFault(.redirect(to: "/previews/loop.m4a"), forPathPrefix: "/previews/loop")
        stubborn.fetch("\(server.baseURL)/previews/loop.m4a", into: redirectLoop)
        waitUntilSettled(redirectLoop)
        XCTAssertNotNil(redirectLoop.error, "a redirect loop must fail")
        XCTAssertFalse(redirectLoop.isComplete)
    }

    private func expectExactBytes(_ path: String, _ fetcher: PreviewFetcher, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = PreviewBytes()
        fetcher.fetch("\(server.baseURL)\(path)", into: bytes)
        waitUntilSettled(bytes)
        XCTAssertNil(bytes.error, file: file, line: line)
        XCTAssertTrue(bytes.isComplete, file: file, line: line)
        let name = path.components(separatedBy: "/").last!
        let expected = [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/\(name)")))
        XCTAssertEqual(contents(bytes), expected, "\(path): the bytes that reach the decoder differ from the file", file: file, line: line)
    }

    func testADroppedConnectionIsResumedWithARangeRequest() throws {
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        server.setFault(.dropAfter(bytes: 10_000), forPathPrefix: "/previews/tone-550")
        try expectExactBytes("/previews/tone-550.m4a", fetcher)
        let requests = server.requestLog.filter { $0.contains("tone-550") }
        XCTAssertEqual(requests.count, 2, "\(requests)")
        XCTAssertTrue(requests.last?.contains("range=bytes=10000-") ?? false, "\(requests)")
    }

    func testAServerThatIgnoresRangeStillGivesTheExactBytes() throws {
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        server.setFault(.dropAfter(bytes: 20_000), forPathPrefix: "/previews/tone-660")
        server.setFault(.ignoreRange, forPathPrefix: "/previews/tone-66")
        try expectExactBytes("/previews/tone-660.m4a", fetcher)
    }

    func testRedirectsSlowServersAndKeepAlive() throws {
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        server.setFault(.redirect(to: "/previews/tone-880.m4a"), forPathPrefix: "/previews/moved")
        let bytes = PreviewBytes()
        fetcher.fetch("\(server.baseURL)/previews/moved.m4a", into: bytes)
        waitUntilSettled(bytes)
        XCTAssertEqual(contents(bytes), [UInt8](try Data(contentsOf: Fixtures.tone(880))))

        server.setFault(.throttle(bytesPerSecond: 100_000), forPathPrefix: "/previews/tone-1100")
        try expectExactBytes("/previews/tone-1100.m4a", fetcher)

        let before = server.connectionCount
        try expectExactBytes("/previews/tone-440.m4a", fetcher)
        try expectExactBytes("/previews/tone-770.m4a", fetcher)
        XCTAssertEqual(server.connectionCount, before, "consecutive previews reuse the keep-alive connection")
    }

    func testStreamedContainerVariantsDecodeWhileDownloading() throws {
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        server.setFault(.throttle(bytesPerSecond: 200_000), forPathPrefix: "/previews/")
        for (name, seconds) in [("tone-440-moov-at-end.m4a", 3), ("tone-660-fragmented.m4a", 3), ("tone-880-video.m4v", 3)] {
            let bytes = PreviewBytes()
            fetcher.fetch("\(server.baseURL)/previews/\(name)", into: bytes)
            let pcm = PCMRing(capacityFrames: 44_100 * 5)
            let done = DispatchSemaphore(value: 0)
            let events = EventLog()
            PreviewDecoder(source: bytes, output: pcm) { event in
                events.append(event)
                if case .ready = event { return }
                done.signal()
            }.start()
            XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(30)), .success, name)
            guard case .finished(let frames)? = events.all.last else { return XCTFail("\(name): \(events.all)") }
            XCTAssertEqual(frames, seconds * 44_100, accuracy: 1024, name)
        }
    }

    func testRefusesNonHTTPURLsWithoutAnyIO() {
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        for url in ["file:///etc/passwd", "/etc/passwd", "concat:/etc/passwd|/etc/hosts",
                    "http://127.0.0.1:1/x.m4a", "http://localhost:\(server.port)/previews/tone-440.m4a", "http://[::1]:631/",
                    "http://2130706433/x.m4a", "http://10.1.2.3/x.m4a", "https://192.168.1.1/x.m4a", "http://169.254.169.254/latest/"] {
            let bytes = PreviewBytes()
            fetcher.fetch(url, into: bytes)
            XCTAssertEqual(bytes.error, .refusedURL(url))
        }
        XCTAssertTrue(server.requestLog.isEmpty)
        // A redirect to another local port is refused too.
        server.setFault(.redirect(to: "http://127.0.0.1:1/x.m4a"), forPathPrefix: "/previews/tone-440")
        let redirected = PreviewBytes()
        fetcher.fetch("\(server.baseURL)/previews/tone-440.m4a", into: redirected)
        waitUntilSettled(redirected)
        XCTAssertNotNil(redirected.error)
        XCTAssertEqual(server.requestLog.count, 1)
    }

    func testAHeadIsARangeRequestThatHoldsThenGoesOnFromTheFirstByteItLacks() throws {
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        let url = "\(server.baseURL)/previews/tone-550.m4a"
        let bytes = PreviewBytes(limit: 1 << 20, initialCapacity: 16 << 10)
        let held = expectation(description: "the head's range is in")
        bytes.onHold { held.fulfill() }
        let handle = fetcher.fetch(url, into: bytes, headBytes: 16 << 10)
        wait(for: [held], timeout: Patience.seconds(20))
        XCTAssertEqual(bytes.receivedCount, 16 << 10)
        XCTAssertFalse(bytes.isComplete)
        XCTAssertNil(bytes.error)
        // Past the head a read fails at once: a head's decoder never waits for bytes nobody fetches.
        var byte: UInt8 = 0
        XCTAssertEqual(bytes.read(into: &byte, at: 16 << 10, maxLength: 1), .failed(.pastHead))

        handle.widen()
        waitUntilSettled(bytes)
        XCTAssertTrue(bytes.isComplete)
        XCTAssertEqual(contents(bytes), [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/tone-550.m4a"))))
        let requests = server.requestLog.filter { $0.contains("tone-550") }
        XCTAssertEqual(requests.count, 2, "\(requests)")
        XCTAssertTrue(requests.first?.hasSuffix("range=bytes=0-16383") ?? false, "\(requests)")
        XCTAssertTrue(requests.last?.hasSuffix("range=bytes=16384-") ?? false, "no byte fetched twice: \(requests)")

        // A head widened before its range is in goes on at once; a server that ignores Range sends
        // it all, and the head becomes the whole preview.
        server.setFault(.ignoreRange, forPathPrefix: "/previews/tone-880")
        let whole = PreviewBytes(limit: 1 << 20, initialCapacity: 16 << 10)
        fetcher.fetch("\(server.baseURL)/previews/tone-880.m4a", into: whole, headBytes: 16 << 10)
        waitUntilSettled(whole)
        XCTAssertTrue(whole.isComplete)
        XCTAssertEqual(whole.receivedCount, 64_348)
    }

    func testCancelStopsADownload() {
        server.setFault(.throttle(bytesPerSecond: 2_000), forPathPrefix: "/previews/")
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        let bytes = PreviewBytes()
        let handle = fetcher.fetch("\(server.baseURL)/previews/tone-440.m4a", into: bytes)
        XCTAssertTrue(eventually { bytes.receivedCount > 0 }, "the download has begun")
        handle.cancel()
        XCTAssertEqual(bytes.error, .cancelled)
    }
}

final class PreviewCacheTests: StandInTestCase {
    func testAReplayedPreviewComesFromDiskAndTheCacheStaysWithinItsSize() throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("previewd-cache-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try PreviewCache(directory: directory, maxBytes: 150_000)   // room for two 66 KB previews
        let fetcher = PreviewFetcher(localOrigin: origin)
        defer { fetcher.shutdown() }
        let url = "\(server.baseURL)/previews/tone-440.m4a"
        // The cache goes by modification times: each entry stored or read once the clock has passed
        // the one before's by more than a file time's tick.
        func clockPassesModification(of url: String) {
            let file = cache.path(for: url).path
            let modified = eventually { (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date }
            guard let modified else { return XCTFail("\(url) is not in the cache") }
            eventually { Date().timeIntervalSince(modified) > 0.02 }
        }
        let first = PreviewDownload(url: url, fetcher: fetcher, limit: 1 << 20, cache: cache)
        waitUntilSettled(first.bytes)
        cache.flush()
        let requests = server.requestLog.count

        let again = PreviewDownload(url: url, fetcher: fetcher, limit: 1 << 20, cache: cache)
        waitUntilSettled(again.bytes)   // read on the cache's thread, never the caller's
        clockPassesModification(of: url)
        XCTAssertTrue(again.bytes.isComplete, "served from disk")
        XCTAssertEqual(server.requestLog.count, requests, "no HTTP request for a cached preview")
        var out = [UInt8](repeating: 0, count: again.bytes.receivedCount)
        _ = out.withUnsafeMutableBytes { again.bytes.read(into: $0.baseAddress!, at: 0, maxLength: $0.count) }
        XCTAssertEqual(out, [UInt8](try Data(contentsOf: Fixtures.tone(440))))

        for name in ["tone-660", "tone-880", "tone-1100"] {
            let stored = "\(server.baseURL)/previews/\(name).m4a"
            let download = PreviewDownload(url: stored, fetcher: fetcher, limit: 1 << 20, cache: cache)
            waitUntilSettled(download.bytes)
            clockPassesModification(of: stored)
        }
        cache.flush()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".m4a") }
        XCTAssertEqual(files.count, 2, "the least recently used were removed: \(files)")
        XCTAssertNil(cache.load(url), "the oldest entry went first")
    }
}

/// The bounds on what the network can make previewd hold: the response cache's bytes, a resume that
/// starts elsewhere, a download that trickles, the disk cache's names.
final class FetchBoundsTests: StandInTestCase {
    func testTheResponseCacheIsBoundedInBytes() {
        let cache = ResponseCache(ttl: 300, capacity: 64, maxBytes: 1000)
        for i in 0..<5 { cache.put("q\(i)", Data(repeating: UInt8(i), count: 240)) }
        XCTAssertLessThanOrEqual(cache.heldBytes, 1000)
        XCTAssertNil(cache.get("q0"), "the oldest went first")
        XCTAssertEqual(cache.get("q4"), Data(repeating: 4, count: 240))
        cache.put("big", Data(count: 251))
        XCTAssertNil(cache.get("big"), "an answer larger than a quarter of the cache is not kept")
        cache.put("q4", Data(count: 10))
        XCTAssertEqual(cache.get("q4"), Data(count: 10), "a new answer replaces the old one")
        XCTAssertLessThanOrEqual(cache.heldBytes, 1000)
    }

    func testA206ThatStartsAtAnotherByteFailsTheResume() {
        server.setFault(.dropAfter(bytes: 20_000), forPathPrefix: "/previews/tone-440")
        server.setFault(.shiftedRange(by: 100), forPathPrefix: "/previews/tone-440.m4a")
        let bytes = PreviewBytes()
        PreviewFetcher(localOrigin: origin).fetch(server.baseURL + "/previews/tone-440.m4a", into: bytes)
        waitUntilSettled(bytes)
        XCTAssertEqual(bytes.error, .badResume(asked: 20_000, got: 20_100))
        XCTAssertEqual(bytes.error?.message, "preview server resumed at byte 20100 instead of 20000")
    }

    func testADownloadThatTricklesFailsAtItsDeadline() {
        server.setFault(.throttle(bytesPerSecond: 500), forPathPrefix: "/previews/tone-440")
        let bytes = PreviewBytes()
        PreviewFetcher(deadline: 1, localOrigin: origin).fetch(server.baseURL + "/previews/tone-440.m4a", into: bytes)
        waitUntilSettled(bytes)
        XCTAssertEqual(bytes.error, .deadline(seconds: 1))
        XCTAssertFalse(bytes.isComplete)
    }

    func testDiskCacheFilesAreNamedBySHA256() throws {
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("previewd-sha-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try PreviewCache(directory: directory, maxBytes: 1 << 20)
        XCTAssertEqual(cache.path(for: "abc").lastPathComponent, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.m4a")
    }
}

