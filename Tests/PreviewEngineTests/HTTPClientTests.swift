import Foundation
import ITunesStandIn
import PreviewCore
import PreviewEngine
import PreviewTestSupport
import XCTest

/// HTTPClient's own contract, against the stand-in on loopback: heads, bodies, Range, redirects
/// checked and counted, timeouts, cancel, limits, shutdown.
final class HTTPClientTests: StandInTestCase {
    private var previewPath: String { "/previews/tone-440.m4a" }
    private var previewBytes: [UInt8] {
        Array(try! Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/tone-440.m4a")))
    }

    /// A GET of `path` on the stand-in, which (on loopback) is the request's one local origin, as
    /// previewd's API base is.
    private func request(_ path: String, _ configure: (inout HTTPRequest) -> Void = { _ in }) -> HTTPRequest {
        var request = HTTPRequest(url: server.baseURL + path)
        request.localOrigin = origin
        configure(&request)
        return request
    }

    /// The message of the `.transport` failure `request` must end with ("" after a test failure).
    private func transportFailure(_ client: HTTPClient, _ request: HTTPRequest,
                                  file: StaticString = #filePath, line: UInt = #line) async -> String {
        do {
            _ = try await client.response(to: request, limit: 1 << 20)
            XCTFail("expected a transport failure", file: file, line: line)
        } catch {
            switch error {
            case .transport(let why), .unreachable(_, let why): return why
            default: XCTFail("\(error)", file: file, line: line); return ""
            }
        }
        return ""
    }

    func testHeadAndBodyOfAPlainGetAndOfARange() async throws {
        let client = HTTPClient()
        let whole = try await client.response(to: request(previewPath), limit: 1 << 20)
        XCTAssertEqual(whole.head.status, 200)
        XCTAssertEqual(whole.head.contentLength, previewBytes.count)
        XCTAssertEqual(whole.body, previewBytes)
        XCTAssertFalse(whole.exceededLimit)

        let tail = try await client.response(to: request(previewPath) { $0.rangeStart = 1000 }, limit: 1 << 20)
        XCTAssertEqual(tail.head.status, 206)
        XCTAssertEqual(tail.body, Array(previewBytes[1000...]))
        XCTAssertTrue(server.requestLog.contains { $0.contains(previewPath) && $0.contains("range=bytes=1000-") })
        XCTAssertEqual(server.connectionCount, 1, "the second request reuses the kept-alive connection")
    }

    func testRetryAfterAndMediaTypeAreRead() async throws {
        let client = HTTPClient()
        server.setFault(.retryAfter(status: 429, seconds: 7), forPathPrefix: "/search")
        let limited = try await client.response(to: request("/search?term=x"), limit: 1 << 20)
        XCTAssertEqual(limited.head.status, 429)
        XCTAssertEqual(limited.head.retryAfterSeconds, 7)
        server.setFault(.body(Array("{}".utf8), contentType: "Application/JSON; charset=utf-8"), forPathPrefix: "/search")
        let json = try await client.response(to: request("/search?term=x"), limit: 1 << 20)
        XCTAssertEqual(json.head.mediaType, "application/json")
        XCTAssertNil(json.head.retryAfterSeconds)
    }

    func testABodyPastTheLimitStopsTheExchange() async throws {
        let client = HTTPClient()
        let response = try await client.response(to: request(previewPath), limit: 1000)
        XCTAssertTrue(response.exceededLimit)
        XCTAssertLessThanOrEqual(response.body.count, 1000)
    }

    func testRedirectsAreFollowedCheckedAndCounted() async throws {
        let client = HTTPClient()
        server.setFault(.redirect(to: previewPath), forPathPrefix: "/hop")
        let followed = try await client.response(to: request("/hop"), limit: 1 << 20)
        XCTAssertEqual(followed.body, previewBytes, "one redirect is followed")

        do {
            _ = try await client.response(to: request("/hop") { $0.allowRedirect = { !$0.contains("/previews/") } }, limit: 1 << 20)
            XCTFail("a refused redirect must fail")
        } catch {
            guard case .redirectRefused(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("/previews/tone-440.m4a"), why)
        }

        server.setFault(.redirect(to: "/loop"), forPathPrefix: "/loop")
        do {
            _ = try await client.response(to: request("/loop") { $0.maxRedirects = 3 }, limit: 1 << 20)
            XCTFail("a redirect loop must fail")
        } catch {
            XCTAssertEqual(error, .redirectRefused("more than 3 redirects"))
        }
        XCTAssertEqual(server.requestLog.filter { $0.contains("/loop") }.count, 4, "the first request and three redirects")
    }

    /// A service on this machine (a second stand-in) is never reached, however its address is
    /// spelled and whether it is asked for directly or through a redirect: the address connected to is
    /// checked, not the URL's text. Only the request's own local origin may be on loopback.
    func testLocalAddressesAreRefusedHoweverTheyAreSpelled() async throws {
        let service = StandInServer(catalogFile: Fixtures.catalog, previewsDirectory: Fixtures.directory.appendingPathComponent("previews"))
        try service.start()
        defer { service.stop() }
        let p = service.port
        let disguises = ["http://127.0.0.1:\(p)/", "http://2130706433:\(p)/", "http://0x7f.1:\(p)/", "http://0177.0.0.1:\(p)/",
                         "http://127.1:\(p)/", "http://127.0.0.1.:\(p)/", "http://localhost:\(p)/", "http://localhost.:\(p)/",
                         "http://user:secret@127.0.0.1:\(p)/", "http://0.0.0.0:\(p)/", "http://%31%32%37.0.0.1:\(p)/",
                         "http://[::ffff:127.0.0.1]:\(p)/", "http://[0:0:0:0:0:0:0:1]:\(p)/", "http://[::1]:\(p)/"]
        let client = HTTPClient()
        for url in disguises {
            var direct = HTTPRequest(url: url)
            direct.localOrigin = origin   // the API's origin, not the service's
            do {
                _ = try await client.response(to: direct, limit: 1 << 20)
                XCTFail("\(url) was fetched")
            } catch {
                let why: String
                switch error {
                case .transport(let said), .unreachable(_, let said): why = said
                default: XCTFail("\(url): \(error)"); continue
                }
                // A name that does not resolve here (a trailing dot) or that curl will not parse (a
                // percent-encoded host) fails before any connection; every other spelling reaches the check.
                if !url.contains("%"), !url.contains(".:") {
                    XCTAssertTrue(why.hasPrefix("refused to connect to "), "\(url): \(why)")
                }
            }
            server.setFault(.redirect(to: url + "previews/tone-440.m4a"), forPathPrefix: "/hop")
            do {
                _ = try await client.response(to: request("/hop"), limit: 1 << 20)
                XCTFail("a redirect to \(url) was followed")
            } catch {
                XCTAssertNotEqual(error, .cancelled, url)
            }
        }
        XCTAssertEqual(service.connectionCount, 0, "the local service was reached: \(service.requestLog)")
        var noOrigin = request(previewPath)
        noOrigin.localOrigin = nil
        // A fresh client: a kept-alive connection to the origin would be reused without a new check
        // (reuse only ever joins the same host and port, which was allowed when it was connected).
        let why = await transportFailure(HTTPClient(), noOrigin)
        XCTAssertEqual(why, "refused to connect to 127.0.0.1, a loopback address", "even the stand-in, when it is not the API")
    }

    func testNoByteWithinTheStallTimeoutIsATimeout() async throws {
        let client = HTTPClient()
        server.setFault(.delay(milliseconds: 4000), forPathPrefix: "/slow")
        do {
            _ = try await client.response(to: request("/slow") { $0.stallTimeout = 1 }, limit: 1 << 20)
            XCTFail("expected a timeout")
        } catch {
            guard case .timedOut = error else { return XCTFail("\(error)") }
        }
    }

    /// libcurl holds a request back, with no timeout of its own, while the host has no connection
    /// to spare; the client ends it once it is past its connect timeout, and the transfer that
    /// holds the connection goes on.
    func testARequestLibcurlHoldsBackWithoutAConnectionEndsAsTimedOut() throws {
        let client = HTTPClient(settings: HTTPClientSettings(maxConnectionsPerHost: 1))
        server.setFault(.delay(milliseconds: 30_000), forPathPrefix: "/slow")
        let holder = Recorder()
        let holding = client.start(request("/slow") { $0.stallTimeout = 60 }, handler: holder)
        XCTAssertTrue(server.waitForRequest(timeout: Patience.seconds(10)) { $0.contains("/slow") }, "the first request holds the one connection")
        let held = Recorder()
        client.start(request(previewPath) { $0.stallTimeout = 1 }, handler: held)
        let end = held.waitForEnd(seconds: 30)
        guard case .timedOut(let why)?? = end else {
            return XCTFail("the held-back request should end as timed out, not \(String(describing: end))")
        }
        XCTAssertTrue(why.contains("no connection to 127.0.0.1:\(server.port) within 6 s"), why)
        XCTAssertNil(holder.waitForEnd(seconds: 0), "the transfer holding the connection goes on")
        XCTAssertFalse(server.requestLog.contains { $0.contains(previewPath) }, "the held-back request never went out")
        holding.cancel()
        XCTAssertEqual(holder.waitForEnd(seconds: 10), .some(.cancelled))
    }

    func testAnUnreachableServerIsATransportFailureWithCurlsWords() async throws {
        let client = HTTPClient()
        let port = server.port
        server.stop()
        var unreachable = HTTPRequest(url: "http://127.0.0.1:\(port)/x")
        unreachable.localOrigin = "127.0.0.1:\(port)"
        let why = await transportFailure(client, unreachable)
        XCTAssertTrue(why.lowercased().contains("connect"), why)
        do {
            _ = try await client.response(to: unreachable, limit: 1 << 20)
        } catch {
            XCTAssertEqual(error.transientCause, "connection refused", "the cause in a listener's words: \(error)")
        }
        try server.start()
    }

    func testCancelEndsAWaitingExchangeAndTheClientGoesOn() async throws {
        let client = HTTPClient()
        server.setFault(.delay(milliseconds: 30_000), forPathPrefix: "/slow")
        let recorder = Recorder()
        let handle = client.start(request("/slow"), handler: recorder)
        XCTAssertTrue(server.waitForRequest(timeout: Patience.seconds(10)) { $0.contains("/slow") }, "the request is out, its head not yet back")
        handle.cancel()
        XCTAssertEqual(recorder.waitForEnd(seconds: 10), .some(.cancelled), "cancelled while waiting for the head")
        handle.cancel()   // a second cancel is harmless
        let after = try await client.response(to: request(previewPath), limit: 1 << 20)
        XCTAssertEqual(after.body, previewBytes, "the client still works")
    }

    func testCancellingTheCallingTaskCancelsTheExchange() async throws {
        let client = HTTPClient()
        server.setFault(.delay(milliseconds: 30_000), forPathPrefix: "/slow")
        let slow = request("/slow")
        let call = Task { try await client.response(to: slow, limit: 1 << 20) }
        XCTAssertTrue(server.waitForRequest(timeout: Patience.seconds(10)) { $0.contains("/slow") }, "the request is out, its head not yet back")
        call.cancel()
        let result = await call.result
        XCTAssertThrowsError(try result.get()) { XCTAssertEqual($0 as? HTTPFailure, .cancelled) }
    }

    func testHTTPSIsVerifiedAgainstTheTrustedAuthorities() async throws {
        let openssl = try XCTUnwrap(ProcessRunner.which("openssl"), "openssl is installed by scripts/test")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previewd-tls-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cert = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let made = try ProcessRunner.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                                   "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", cert])
        XCTAssertEqual(made.status, 0, made.stderr)
        let port = try LoopbackPort.free()
        let tls = try BackgroundCommand(openssl, ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-www"])
        defer { tls.stop(signal: SIGKILL) }   // a helper with nothing to save; it may not end on SIGINT
        XCTAssertTrue(tls.waitFor("ACCEPT"), tls.output)
        let client = HTTPClient()
        var untrusted = HTTPRequest(url: "https://127.0.0.1:\(port)/")
        untrusted.localOrigin = "127.0.0.1:\(port)"
        let why = await transportFailure(client, untrusted)
        XCTAssertTrue(why.lowercased().contains("certificate"), "a certificate no trusted authority signed is refused: \(why)")
        do { _ = try await client.response(to: untrusted, limit: 1 << 20) } catch { XCTAssertEqual(error.transientCause, "TLS failed") }
        let trusting = HTTPClient(settings: HTTPClientSettings(caFile: cert))   // --ca-file: besides the system's
        let answer = try await trusting.response(to: untrusted, limit: 1 << 20)
        XCTAssertEqual(answer.head.status, 200)
        XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("TLS"), "s_server's page describes the session")
    }

    func testACAFileMustBeAReadablePEMCertificate() throws {
        let folder = NSTemporaryDirectory() + "previewd-ca-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a certificate\n".write(toFile: folder + "/text", atomically: true, encoding: .utf8)
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(toFile: folder + "/ca.pem", atomically: true, encoding: .utf8)
        XCTAssertEqual(HTTPClientSettings.problem(caFile: folder + "/missing"), "no such file")
        XCTAssertEqual(HTTPClientSettings.problem(caFile: folder), "not a regular file")
        XCTAssertEqual(HTTPClientSettings.problem(caFile: folder + "/text"), "no PEM certificate in it")
        XCTAssertNil(HTTPClientSettings.problem(caFile: folder + "/ca.pem"))
    }

    func testShutdownEndsEveryExchangeAndLaterOnesAtOnce() throws {
        let client = HTTPClient()
        server.setFault(.throttle(bytesPerSecond: 2000), forPathPrefix: previewPath)
        let streaming = Recorder()
        client.start(request(previewPath), handler: streaming)
        XCTAssertTrue(streaming.waitForBody(seconds: 10), "the body has started")
        client.shutdown()
        XCTAssertEqual(streaming.waitForEnd(seconds: 10), .some(.cancelled))
        let late = Recorder()
        client.start(request(previewPath), handler: late)
        XCTAssertEqual(late.waitForEnd(seconds: 10), .some(.cancelled), "nothing runs a request after shutdown")
    }
}

/// Records what an exchange reported, for tests that drive `HTTPClient.start` directly.
private final class Recorder: HTTPResponseHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var bodyBytes = 0
    private var end: HTTPFailure??

    func receive(head: HTTPHead) -> Bool { true }

    func receive(body: UnsafeRawBufferPointer) -> Bool {
        lock.withLock { bodyBytes += body.count }
        return true
    }

    func finish(_ failure: HTTPFailure?) {
        lock.withLock {
            if end != nil { XCTFail("finish is called once") }
            end = .some(failure)
        }
    }

    /// The end (nil inside: success), or nil when it did not come within `seconds` times the
    /// patience (a hang guard; 0 asks once: has it ended?).
    func waitForEnd(seconds: Double) -> HTTPFailure?? {
        eventually(timeout: seconds) { () -> HTTPFailure?? in lock.withLock { end } }
    }

    /// Whether some of the body came within `seconds` times the patience (a hang guard).
    func waitForBody(seconds: Double) -> Bool {
        eventually(timeout: seconds) { lock.withLock { bodyBytes > 0 } }
    }
}
