import Foundation
import Glibc
import PreviewCore
@testable import PreviewEngine
import XCTest

/// The control socket with a plain handler at the seam (the player is exercised end to end elsewhere).
final class ControlServerTests: XCTestCase {
    var directory: String!
    var path: String { directory + "/previewd.sock" }

    override func setUp() {
        directory = NSTemporaryDirectory() + "previewd-control-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func echoServer() -> ControlServer {
        ControlServer(path: path, log: Log(minimum: .error)) { request in
            if request.cmd == "slow" { try? await Task.sleep(nanoseconds: 200_000_000) }
            return .success(id: request.id, .string(request.cmd))
        }
    }

    func testAnswersLinesAndSurvivesBadInput() throws {
        let server = echoServer()
        try server.start()
        defer { server.stop() }
        var attributes = stat()
        XCTAssertEqual(stat(path, &attributes), 0)
        XCTAssertEqual(attributes.st_mode & 0o777, 0o600, "the socket must be private")

        let client = try LineClient(path: path)
        XCTAssertEqual(try client.ask(#"{"id":1,"cmd":"status"}"#), .success(id: 1, .string("status")))
        for garbage in ["not json", #"{"cmd": 5}"#, "[1,2]", "\u{01}\u{02}\u{ff}"] {
            let answer = try client.ask(garbage)
            XCTAssertFalse(answer.ok)
            XCTAssertEqual(answer.error?.code, .badRequest, garbage)
        }
        // Still usable after all that, and answers in order.
        XCTAssertEqual(try client.ask(#"{"id":2,"cmd":"next"}"#), .success(id: 2, .string("next")))
    }

    func testOverlongLineGetsAnErrorAndTheConnectionCloses() throws {
        let server = echoServer()
        try server.start()
        defer { server.stop() }
        let client = try LineClient(path: path)
        let answer = try client.ask(String(repeating: "x", count: 70_000))
        XCTAssertEqual(answer.error?.code, .tooLong)
        XCTAssertNil(try? client.ask(#"{"cmd":"status"}"#), "the connection should be closed")
        XCTAssertEqual(try LineClient(path: path).ask(#"{"id":3,"cmd":"status"}"#).ok, true, "others are unaffected")
    }

    func testASlowCommandDoesNotBlockOtherClients() throws {
        let server = echoServer()
        try server.start()
        defer { server.stop() }
        let slow = try LineClient(path: path)
        try slow.send(#"{"id":1,"cmd":"slow"}"#)
        XCTAssertEqual(try LineClient(path: path).ask(#"{"id":2,"cmd":"status"}"#).ok, true)
        XCTAssertEqual(try slow.receive(), .success(id: 1, .string("slow")))
    }

    func testRefusesToStartTwiceAndReplacesAStaleSocket() throws {
        let first = echoServer()
        try first.start()
        XCTAssertThrowsError(try echoServer().start()) {
            XCTAssertEqual($0 as? ControlServerError, .alreadyRunning(path))
        }
        first.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "stop removes the socket")

        // A socket file nobody listens on (a previewd that was killed) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = try UnixSocket.withAddress(path) { bind(stale, $0, $1) }
        close(stale)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let second = echoServer()
        try second.start()
        defer { second.stop() }
        XCTAssertEqual(try LineClient(path: path).ask(#"{"cmd":"hello"}"#).ok, true)
    }
}

/// A blocking line client for tests.
final class LineClient {
    let fd: Int32
    private var framer = LineFramer(maxLineLength: 1 << 20)
    private var pending: [[UInt8]] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ line: String) throws {
        guard UnixSocket.writeAll(fd, Array((line + "\n").utf8)) else { throw POSIXError(.EPIPE) }
    }

    func receive() throws -> ControlResponse {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while pending.isEmpty {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw POSIXError(.ECONNRESET) }
            pending += try framer.feed(buffer[..<n])
        }
        return try JSONDecoder().decode(ControlResponse.self, from: Data(pending.removeFirst()))
    }

    func ask(_ line: String) throws -> ControlResponse {
        try send(line)
        return try receive()
    }
}
