import Foundation
import Glibc
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The control socket (`ControlProtocol` on a `LineServer`) with a plain handler at the seam (the
/// player is exercised end to end elsewhere).
final class ControlProtocolTests: XCTestCase {
    var directory: String!
    var path: String { directory + "/previewd.sock" }
    /// The server's event loop, on a thread of its own (previewd runs it on its main thread).
    var loop: EngineLoop!

    override func setUp() {
        directory = NSTemporaryDirectory() + "previewd-control-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        loop = EngineLoop()
        startThread(named: "test.loop") { [loop] in loop!.run() }
    }

    override func tearDown() {
        loop.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func server(events: EventHub? = nil, stallTimeout: Double = 5, idleTimeout: Double = 120) -> JSONSocket {
        let control = ControlProtocol(loop: loop, events: events, rules: LineRules(stallTimeout: stallTimeout, idleTimeout: idleTimeout)) { request in
            if request.cmd == "slow" { await SlowAnswer.delay() }
            return ControlReply.success(id: request.id, request.cmd)
        }
        return JSONSocket(path: path, control: control, server: LineServer(serving: control, loop: loop, name: "control", log: Log(minimum: .error)))
    }

    private func echoServer() -> JSONSocket { server() }

    /// Runs `body` on the loop's thread (where the hub lives) and returns its result.
    private func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ValueBox<T>()
        let done = DispatchSemaphore(value: 0)
        loop.execute { box.value = body(); done.signal() }
        done.wait()
        return box.value!
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

    func testSubscribersReceiveEventsAndOthersStillGetAnswers() throws {
        let hub = EventHub()
        let server = server(events: hub)
        try server.start()
        defer { server.stop() }
        let watcher = try LineClient(path: path)
        let subscribed = try watcher.ask(#"{"id":9,"cmd":"subscribe"}"#)
        XCTAssertEqual(subscribed.id, 9)
        XCTAssertTrue(subscribed.ok)
        XCTAssertTrue(eventually { self.onLoop { server.subscriberCount } == 1 }, "subscribed")
        onLoop {
            hub.publish(.state(.playing, index: 2))
            hub.publish(.track(index: 2, id: 3, Track(trackId: 7, trackName: "Seven")))
            hub.publish(.error("track 3: preview server answered HTTP 404"))
        }
        XCTAssertEqual(try watcher.receiveValue()["event"], .string("state"))
        let track = try watcher.receiveValue()
        XCTAssertEqual(track["track"]?["trackName"], .string("Seven"))
        XCTAssertEqual(try watcher.receiveValue()["message"], .string("track 3: preview server answered HTTP 404"))
        XCTAssertEqual(try LineClient(path: path).ask(#"{"id":1,"cmd":"next"}"#).ok, true)
        // Bad arguments to subscribe are an error, and the connection stays a request connection.
        let other = try LineClient(path: path)
        XCTAssertEqual(try other.ask(#"{"id":2,"cmd":"subscribe","args":{"position":"yes"}}"#).error?.code, .badArgument)
        XCTAssertEqual(try other.ask(#"{"id":3,"cmd":"status"}"#).ok, true)
        // Leaving ends the subscription.
        close(watcher.fd)
        XCTAssertTrue(eventually { self.onLoop { server.subscriberCount } == 0 }, "the subscription ended")
        XCTAssertEqual(onLoop { server.subscriberCount }, 0)
    }

    /// One connection is enough for a remote: after `subscribe` it still takes requests, whose
    /// answers carry their `id` while events carry `event`, in the order they happened.
    func testASubscribedConnectionStillTakesRequests() throws {
        let hub = EventHub()
        let server = server(events: hub)
        try server.start()
        defer { server.stop() }
        let remote = try LineClient(path: path)
        XCTAssertEqual(try remote.ask(#"{"id":1,"cmd":"subscribe"}"#).id, 1)
        XCTAssertTrue(eventually { self.onLoop { server.subscriberCount } == 1 }, "subscribed")
        try remote.send(#"{"id":2,"cmd":"slow"}"#)
        onLoop { hub.publish(.state(.playing, index: 0)) }
        try remote.send(#"{"id":3,"cmd":"status"}"#)
        let lines = try (0..<3).map { _ in try remote.receiveValue() }
        XCTAssertEqual(lines.compactMap { $0["event"] }, [.string("state")], "\(lines)")
        XCTAssertEqual(lines.compactMap { $0["id"] }, [.number(2), .number(3)], "answers in request order, with their ids")
        XCTAssertEqual(lines.compactMap { $0["result"] }, [.string("slow"), .string("status")])
        onLoop { hub.publish(.volume(40, muted: false)) }
        XCTAssertEqual(try remote.receiveValue()["event"], .string("volume"))
        // Asking again changes only whether ticks come.
        XCTAssertEqual(try remote.ask(#"{"id":4,"cmd":"subscribe","args":{"position":true}}"#).id, 4)
        XCTAssertTrue(onLoop { hub.wantsPosition })
        XCTAssertEqual(onLoop { server.subscriberCount }, 1)
        XCTAssertEqual(onLoop { hub.observerCount }, 1, "one registration per subscriber")
    }

    func testPositionTicksGoOnlyToSubscribersThatAskedForThem() throws {
        let hub = EventHub()
        let server = server(events: hub)
        try server.start()
        defer { server.stop() }
        let plain = try LineClient(path: path)
        XCTAssertTrue(try plain.ask(#"{"id":1,"cmd":"subscribe"}"#).ok)
        XCTAssertFalse(onLoop { hub.wantsPosition })
        let ticked = try LineClient(path: path)
        XCTAssertTrue(try ticked.ask(#"{"id":2,"cmd":"subscribe","args":{"position":true}}"#).ok)
        XCTAssertTrue(onLoop { hub.wantsPosition }, "the server asks the hub for ticks for its subscriber")
        onLoop {
            hub.publish(.position(ms: 1000, durationMs: 30_000))
            hub.publish(.state(.paused, index: 0))
        }
        XCTAssertEqual(try ticked.receiveValue()["event"], .string("position"))
        XCTAssertEqual(try ticked.receiveValue()["event"], .string("state"))
        XCTAssertEqual(try plain.receiveValue()["event"], .string("state"), "no tick for a subscriber that did not ask")
        // The last subscriber that asked leaves: the hub (and so the player's tick timer) is told.
        let noTicks = expectation(description: "nobody wants ticks")
        onLoop { hub.onPositionInterest = { if !hub.wantsPosition { noTicks.fulfill() } } }
        shutdown(ticked.fd, Int32(SHUT_RDWR))
        wait(for: [noTicks], timeout: Patience.seconds(10))
    }

    func testASubscriberThatNeverReadsIsDroppedWithoutBlockingAnyone() throws {
        let hub = EventHub()
        let server = server(events: hub)
        try server.start()
        defer { server.stop() }
        let sleeper = try LineClient(path: path, receiveBuffer: 4096)
        try sleeper.send(#"{"cmd":"subscribe"}"#)
        XCTAssertTrue(eventually { self.onLoop { server.subscriberCount } == 1 }, "subscribed")
        let big = Track(trackId: 1, trackName: String(repeating: "n", count: 4000))
        let left = onLoop { () -> Int in
            for i in 0..<5000 {
                hub.publish(.track(index: i, id: i + 1, big))   // never blocks, whatever the subscriber does
                if server.subscriberCount == 0 { break }
            }
            return server.subscriberCount
        }
        XCTAssertEqual(left, 0, "a subscriber that stopped reading must be dropped")
        XCTAssertEqual(try LineClient(path: path).ask(#"{"id":1,"cmd":"status"}"#).ok, true)
    }

    func testHundredClientsAtOnceAndClientsThatLeaveMidRequest() throws {
        let server = echoServer()
        try server.start()
        defer { server.stop() }
        for _ in 0..<20 {   // half a request, then gone
            let quitter = try LineClient(path: path)
            _ = UnixSocket.writeAll(quitter.fd, Array(#"{"id":1,"cmd":"st"#.utf8))
        }
        let clients = try (0..<100).map { _ in try LineClient(path: path) }
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: clients.count) { i in
            let ok = (try? clients[i].ask(#"{"id":\#(i),"cmd":"status"}"#))?.id == i
            answers.add(ok)
        }
        XCTAssertEqual(answers.count, 100)
        XCTAssertEqual(try LineClient(path: path).ask(#"{"id":1,"cmd":"status"}"#).ok, true)
    }

    /// 300 idle connections and one that stops in the middle of a line never keep a client out: a
    /// new client takes the place of the idle one heard from longest ago, and the stalled one is
    /// told why and dropped after the stall timeout.
    func testIdleConnectionsAndAStalledLineNeverKeepAClientOut() throws {
        let server = server(stallTimeout: 1)
        try server.start()
        defer { server.stop() }
        let threadsBefore = Self.threadCount()
        let idle = try (0..<300).map { _ in try LineClient(path: path) }
        let stalled = try LineClient(path: path)
        guard UnixSocket.writeAll(stalled.fd, Array(#"{"id":1,"cmd":"#.utf8)) else { return XCTFail("could not write") }
        XCTAssertEqual(try LineClient(path: path).ask(#"{"id":2,"cmd":"status"}"#), .success(id: 2, .string("status")))
        let told = try stalled.receive()
        XCTAssertEqual(told.error?.code, .badRequest)
        XCTAssertTrue(told.error?.message.contains("not finished within 1 s") == true, "\(told)")
        XCTAssertThrowsError(try stalled.receiveLine(), "the stalled connection is closed")
        XCTAssertThrowsError(try idle[0].ask(#"{"id":3,"cmd":"status"}"#), "the oldest idle connection made room")
        XCTAssertEqual(try idle[299].ask(#"{"id":4,"cmd":"status"}"#).ok, true, "a recent one is still served")
        XCTAssertLessThan(Self.threadCount() - threadsBefore, 4, "connections cost no thread: one loop serves them all")
    }

    private static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    func testAnIdleClientIsDisconnectedAfterTheIdleTimeout() throws {
        let server = server(idleTimeout: 1)
        try server.start()
        defer { server.stop() }
        let client = try LineClient(path: path)
        XCTAssertEqual(try client.ask(#"{"id":1,"cmd":"status"}"#).ok, true)
        XCTAssertThrowsError(try client.receiveLine(), "closed after a second without a request")
    }

    func testRefusesAFolderOthersCouldWriteTo() throws {
        chmod(directory, 0o777)
        XCTAssertThrowsError(try echoServer().start()) { error in
            guard case .unsafeDirectory(_, let why)? = error as? ListenerError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("others may write"), why)
        }
        chmod(directory, 0o700)
        let server = echoServer()
        XCTAssertNoThrow(try server.start())
        server.stop()
        XCTAssertNoThrow(try Listener.checkOwnership(of: "/tmp"), "sticky /tmp is fine")
    }

    func testRefusesToStartTwiceAndReplacesAStaleSocket() throws {
        let first = echoServer()
        try first.start()
        XCTAssertThrowsError(try echoServer().start()) {
            XCTAssertEqual($0 as? ListenerError, .alreadyRunning(path))
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

/// The JSON protocol on a connection server at `path`, started and stopped as the tests do.
private struct JSONSocket: Sendable {
    let path: String
    let control: ControlProtocol
    let server: LineServer

    func start() throws { try server.listen(on: .unix(path)) }
    func stop() { server.stop() }
    /// On the loop.
    var subscriberCount: Int { control.subscriberCount }
}

/// A blocking line client for tests; each is used by one thread at a time.
final class LineClient: @unchecked Sendable {
    let fd: Int32
    private var framer = LineFramer(maxLineLength: 1 << 20)
    private var pending: [[UInt8]] = []

    /// A client of the Unix socket at `path`.
    convenience init(path: String, receiveBuffer: Int32? = nil) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        let result = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        self.init(connected: fd)
    }

    /// A client of 127.0.0.1:`port` over TCP.
    convenience init(loopbackPort port: UInt16) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        self.init(connected: fd)
    }

    /// Takes over `fd`, a connected stream socket; a read waits at most 10 s.
    init(connected fd: Int32) {
        self.fd = fd
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ line: String) throws {
        guard UnixSocket.writeAll(fd, Array((line + "\n").utf8)) else { throw POSIXError(.EPIPE) }
    }

    /// The next line as text.
    func receiveText() throws -> String {
        String(decoding: try receiveLine(), as: UTF8.self)
    }

    func receive() throws -> ControlResponse {
        try JSONDecoder().decode(ControlResponse.self, from: Data(receiveLine()))
    }

    func receiveValue() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(receiveLine()))
    }

    func receiveLine() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while pending.isEmpty {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw POSIXError(.ECONNRESET) }
            pending += try framer.feed(buffer[..<n])
        }
        return pending.removeFirst()
    }

    func ask(_ line: String) throws -> ControlResponse {
        try send(line)
        return try receive()
    }
}

/// Holds a value handed from the loop's thread.
private final class ValueBox<T>: @unchecked Sendable {
    var value: T?
}

/// What makes the "slow" command slow: 200 ms on a thread of its own (not the runtime's pool).
private enum SlowAnswer {
    static func delay() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            startThread(named: "test.slow") {
                usleep(200_000)   // The property: a command whose answer comes late, while events and other answers go on.
                continuation.resume()
            }
        }
    }
}

/// Counts successful answers across threads.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add(_ ok: Bool) { lock.lock(); if ok { n += 1 }; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return n }
}
