import Foundation
import Glibc
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The connection server under a second protocol (`EchoLineProtocol`, shaped like MPD's: a greeting,
/// an `idle` that waits, a `noidle` that interrupts it), over real sockets on its own loop: the same
/// rules as the JSON socket's (ControlProtocolTests), each configurable.
final class LineServerTests: XCTestCase {
    private var directory: String!
    private var path: String { directory + "/echo.sock" }
    private var loop: EngineLoop!

    override func setUp() {
        directory = NSTemporaryDirectory() + "previewd-lines-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        loop = EngineLoop()
        startThread(named: "test.loop") { [loop] in loop!.run() }
    }

    override func tearDown() {
        loop.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// An echo server on the Unix socket with `rules`; stopped at the end of the test.
    private func serve(_ rules: LineRules = LineRules()) throws -> (LineServer, EchoLineProtocol) {
        let echo = EchoLineProtocol(loop: loop, rules: rules)
        let server = LineServer(serving: echo, loop: loop, name: "echo", log: Log(minimum: .error))
        try server.listen(on: .unix(path))
        addTeardownBlock { server.stop() }
        return (server, echo)
    }

    /// A client that has read the greeting.
    private func client(receiveBuffer: Int32? = nil) throws -> LineClient {
        let client = try LineClient(path: path, receiveBuffer: receiveBuffer)
        XCTAssertEqual(try client.receiveText(), "HELLO echo")
        return client
    }

    private func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = LoopBox<T>()
        let done = DispatchSemaphore(value: 0)
        loop.execute { box.value = body(); done.signal() }
        done.wait()
        return box.value!
    }

    /// Reads until the server closes the connection (a read that times out after 10 s fails the test).
    private func assertClosed(_ client: LineClient, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        while true {
            do { _ = try client.receiveLine() } catch {
                if let error = error as? POSIXError, error.code == .ECONNRESET { return }
                return XCTFail("\(message): \(error)", file: file, line: line)
            }
        }
    }

    func testGreetsAndAnswersEachLine() throws {
        _ = try serve()
        let client = try client()
        try client.send("hello there")
        XCTAssertEqual(try client.receiveText(), "ECHO hello there")
        try client.send("again\r")
        XCTAssertEqual(try client.receiveText(), "ECHO again", "a \\r before the newline is dropped")
    }

    func testAnOverlongLineGetsTheProtocolsFarewellAndOthersGoOn() throws {
        _ = try serve(LineRules(maxLineLength: 4096))
        let client = try client()
        try client.send(String(repeating: "y", count: 4096))
        XCTAssertEqual(try client.receiveText(), "ECHO " + String(repeating: "y", count: 4096), "4 KiB fits")
        // A 10 MiB line: the server stops reading it and closes, so the send may fail part way.
        _ = UnixSocket.writeAll(client.fd, Array(repeating: UInt8(ascii: "z"), count: 10 << 20) + [0x0A])
        XCTAssertEqual(try client.receiveText(), "ERR too long")
        assertClosed(client, "closed after an overlong line")
        let other = try self.client()
        try other.send("still here")
        XCTAssertEqual(try other.receiveText(), "ECHO still here")
    }

    /// A reader that never reads while the server pushes is cut off once the bound waits unread;
    /// the protocol's loop never blocks on it. An answer larger than that bound still goes whole
    /// to a client that reads it.
    func testAStalledReaderIsCutOffAndOutputIsBounded() throws {
        let (server, echo) = try serve(LineRules(maxPushBacklog: 64 << 10))
        let sleeper = try client(receiveBuffer: 4096)
        try sleeper.send("flood 100000")
        XCTAssertTrue(eventually { self.onLoop { echo.seen.contains("closed") } }, "the connection closed")
        XCTAssertEqual(onLoop { echo.seen }, ["got flood 100000", "closed"])
        let pushed = onLoop { () -> Int in echo.pushed }
        XCTAssertLessThan(pushed, 1000, "cut off long before 100,000 lines (100 MB)")
        XCTAssertEqual(onLoop { server.clientCount }, 0, "the sleeper is gone")

        let reader = try client()
        try reader.send("big 1000000")
        XCTAssertEqual(try reader.receiveLine().count, 1_000_000, "a 1 MB answer arrives whole")
        try reader.send("ok")
        XCTAssertEqual(try reader.receiveText(), "ECHO ok")
    }

    func testAStalledLineIsToldAndClosed() throws {
        _ = try serve(LineRules(stallTimeout: 0.5))
        let client = try client()
        guard UnixSocket.writeAll(client.fd, Array("half a li".utf8)) else { return XCTFail("could not write") }
        XCTAssertEqual(try client.receiveText(), "ERR stalled")
        assertClosed(client, "closed after a stalled line")
    }

    /// A client that leaves with half a line sent, just as its stall timeout comes due (the soak's
    /// quitter leaves after 5 s, the JSON socket's stall timeout): the timer runs before `poll` sees
    /// the hang-up, the farewell cannot be written and disconnects it inside the timer, which must
    /// not touch the connection after that (it crashed previewd: an unowned reference read freed).
    func testAClientGoneWhenItsStallTimeoutComesIsDroppedOnce() throws {
        let (server, echo) = try serve(LineRules(stallTimeout: 0.2))
        let quitter = try client()
        // One write, read whole by one recv: once `ping` is answered, the half line after it is
        // buffered and its stall timer set (before any work handed to the loop after this runs).
        guard UnixSocket.writeAll(quitter.fd, Array("ping\nhalf a li".utf8)) else { return XCTFail("could not write") }
        XCTAssertEqual(try quitter.receiveText(), "ECHO ping")
        // Hold the loop while the client leaves and until the timer is due: the loop then runs the
        // due timer before it polls again.
        let holding = DispatchSemaphore(value: 0), left = DispatchSemaphore(value: 0)
        loop.execute {
            let due = MonotonicClock.nanoseconds() + 300_000_000   // after the timer's deadline (0.2 s from before now)
            holding.signal()
            left.wait()
            while MonotonicClock.nanoseconds() < due { usleep(10_000) }   // The property: the loop held until the timer is due.
        }
        holding.wait()
        shutdown(quitter.fd, Int32(SHUT_RDWR))
        left.signal()
        XCTAssertTrue(eventually { self.onLoop { echo.seen.contains("closed") } }, "the connection closed")
        XCTAssertEqual(onLoop { echo.seen }, ["got ping", "closed"], "dropped once, its half line never handed over")
        XCTAssertEqual(onLoop { server.clientCount }, 0)
        let other = try client()
        try other.send("still here")
        XCTAssertEqual(try other.receiveText(), "ECHO still here")
    }

    /// An idle client is closed after the idle timeout; one that waits (in `idle`) never is, and
    /// its `noidle` is seen at once although its `idle` has no answer yet.
    func testIdleTimeoutSparesAClientThatWaits() throws {
        let (_, echo) = try serve(LineRules(idleTimeout: 0.5, delivery: .inOrderUnlessWaiting))
        let waiter = try client()
        try waiter.send("idle")
        let idle = try client()   // connected after the waiter: its timeout ends later than the waiter's would
        assertClosed(idle, "an idle client is closed after the idle timeout")
        try waiter.send("noidle")
        XCTAssertEqual(try waiter.receiveText(), "IDLE interrupted", "the waiter was kept, and noidle seen while idle waited")
        XCTAssertEqual(onLoop { echo.seen.filter { $0 != "closed" } }, ["got idle", "got noidle", "answered idle"])
        try waiter.send("after")
        XCTAssertEqual(try waiter.receiveText(), "ECHO after")
    }

    /// In order (the JSON socket's way), a line sent while another waits for its answer is handed
    /// over only after that answer; the answers come in request order.
    func testInOrderHandsTheNextLineOnlyAfterTheAnswer() throws {
        let (_, echo) = try serve(LineRules(delivery: .inOrder))
        let client = try client()
        try client.send("slow")
        try client.send("quick")
        XCTAssertEqual(try client.receiveText(), "SLOW")
        XCTAssertEqual(try client.receiveText(), "ECHO quick")
        XCTAssertEqual(onLoop { echo.seen }, ["got slow", "answered slow", "got quick"])
    }

    /// At once, a line sent while another waits for its answer is handed over as soon as it is read;
    /// the protocol orders the answers (this one does not).
    func testAtOnceHandsALineOverWhileAnotherWaits() throws {
        let (_, echo) = try serve(LineRules(delivery: .atOnce))
        let client = try client()
        try client.send("slow")
        try client.send("quick")
        XCTAssertEqual(try client.receiveText(), "ECHO quick")
        XCTAssertEqual(try client.receiveText(), "SLOW")
        XCTAssertEqual(onLoop { echo.seen }, ["got slow", "got quick", "answered slow"])
    }

    /// In order unless waiting, a client in `idle` can still be heard; otherwise lines wait their turn.
    func testInOrderUnlessWaitingHearsALineOnlyWhileWaiting() throws {
        let (_, echo) = try serve(LineRules(delivery: .inOrderUnlessWaiting))
        let client = try client()
        try client.send("slow")
        try client.send("idle")
        try client.send("noidle")
        XCTAssertEqual(try client.receiveText(), "SLOW")
        XCTAssertEqual(try client.receiveText(), "IDLE interrupted")
        XCTAssertEqual(onLoop { echo.seen }, ["got slow", "answered slow", "got idle", "got noidle", "answered idle"])
    }

    /// With `maxClients` taken, a newcomer takes the place of the idle client heard from longest
    /// ago, never one waiting for an answer or waiting in `idle`; with none idle, it is told and closed.
    func testEvictsTheIdleClientHeardFromLongestAgo() throws {
        let (_, echo) = try serve(LineRules(maxClients: 3, delivery: .atOnce))
        let oldest = try client()
        let waiting = try client()
        try waiting.send("idle")
        let asking = try client()
        try asking.send("slow")
        try oldest.send("ping")   // heard from last, but the only idle one
        XCTAssertEqual(try oldest.receiveText(), "ECHO ping")

        let newcomer = try client()
        assertClosed(oldest, "the idle client made room")
        XCTAssertEqual(try asking.receiveText(), "SLOW", "a client waiting for an answer is kept")
        try waiting.send("noidle")
        XCTAssertEqual(try waiting.receiveText(), "IDLE interrupted", "a waiting client is kept")
        try newcomer.send("idle")
        try waiting.send("idle")
        try asking.send("idle")
        XCTAssertTrue(eventually { self.onLoop { echo.idling } == 3 }, "three clients idle")
        let refused = try LineClient(path: path)
        XCTAssertEqual(try refused.receiveText(), "ERR full", "nobody idle: the newcomer is told")
        assertClosed(refused, "and closed")
        try newcomer.send("wake")
        XCTAssertEqual(try newcomer.receiveText(), "IDLE woken")
        XCTAssertEqual(try newcomer.receiveText(), "OK")
        XCTAssertEqual(try waiting.receiveText(), "IDLE woken")
    }

    func testListensOnTCPWhenAsked() throws {
        let echo = EchoLineProtocol(loop: loop, rules: LineRules())
        let server = LineServer(serving: echo, loop: loop, name: "echo", log: Log(minimum: .error))
        let listener = try server.listen(on: ListenAddress(parsing: "127.0.0.1:0"))
        defer { server.stop() }
        XCTAssertTrue(listener.isLoopback)
        let port = try XCTUnwrap(listener.port)
        XCTAssertNotEqual(port, 0, "port 0: the system chose one")
        let client = try LineClient(loopbackPort: port)
        XCTAssertEqual(try client.receiveText(), "HELLO echo")
        try client.send("over tcp")
        XCTAssertEqual(try client.receiveText(), "ECHO over tcp")
        XCTAssertThrowsError(try server.listen(on: .tcp(host: "127.0.0.1", port: port)), "the port is taken")
    }

    func testReadsAddressesAsAUserWritesThem() throws {
        XCTAssertEqual(try ListenAddress(parsing: "/run/user/1000/previewd/mpd.sock"), .unix("/run/user/1000/previewd/mpd.sock"))
        XCTAssertEqual(try ListenAddress(parsing: "127.0.0.1:6600"), .tcp(host: "127.0.0.1", port: 6600))
        XCTAssertEqual(try ListenAddress(parsing: "[::1]:6600"), .tcp(host: "::1", port: 6600))
        XCTAssertEqual(ListenAddress.tcp(host: "::1", port: 6600).description, "[::1]:6600")
        XCTAssertEqual(try ListenAddress(parsing: "localhost:6600"), .tcp(host: "localhost", port: 6600))
        for bad in ["mpd", "host:", ":6600", "host:70000", "host:port"] {
            XCTAssertThrowsError(try ListenAddress(parsing: bad), bad)
        }
    }
}

/// Holds a value handed from the loop's thread.
private final class LoopBox<T>: @unchecked Sendable {
    var value: T?
}
