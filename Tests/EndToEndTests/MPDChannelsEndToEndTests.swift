import Foundation
import PreviewTestSupport
import XCTest

/// MPD's client-to-client messages as its clients use them: mpdscribble's `love` (its sequence
/// from src/MpdObserver.cxx on a bare socket, and Debian's mpdscribble 0.24 itself), Cantata's
/// dynamic-playlist channels (mpd-interface/mpdconnection.cpp), and mpc's `sendmessage`,
/// `waitmessage` and `channels`; every ACK as MPD 0.23 answers it (src/command/MessageCommands.cxx).
final class MPDChannelsEndToEndTests: DaemonTestCase {
    private var socket = ""
    private var port: UInt16 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessRunner.which("mpc") != nil else { throw XCTSkip("mpc is not installed (Debian: mpc)") }
        (socket, port) = try startServingMPD()
    }

    /// mpdscribble 0.27 (src/MpdObserver.cxx): on connecting `subscribe "mpdscribble"` (:86), then
    /// `idle`; woken with `changed: message` it sends `readmessages` (:285, :324) and takes `love`
    /// for the current song. The answers to what goes wrong are MPD's.
    func testMpdscribblesLoveAndMPDsAnswers() throws {
        let scribble = try MPDRawClient(path: socket), watcher = try MPDRawClient(path: socket), sender = try MPDRawClient(path: socket)
        watcher.send("idle subscription")
        XCTAssertEqual(scribble.ask("subscribe \"mpdscribble\""), ["OK"])
        XCTAssertEqual(watcher.response(), ["changed: subscription", "OK"], "every client hears of a subscription")
        XCTAssertEqual(sender.ask("channels"), ["channel: mpdscribble", "OK"])
        XCTAssertEqual(scribble.ask("idle"), ["changed: subscription", "OK"], "its own subscription first: it enters idle again (:331)")
        scribble.send("idle")
        XCTAssertEqual(sender.ask("sendmessage mpdscribble love"), ["OK"])
        XCTAssertEqual(scribble.response(), ["changed: message", "OK"])
        XCTAssertEqual(scribble.ask("readmessages"), ["channel: mpdscribble", "message: love", "OK"])
        XCTAssertEqual(scribble.ask("readmessages"), ["OK"], "read once")
        XCTAssertEqual(sender.ask("readmessages"), ["OK"], "a message is for the subscribers")

        XCTAssertEqual(sender.ask("sendmessage nobody hi"), ["ACK [50@0] {sendmessage} nobody is subscribed to this channel"])
        XCTAssertEqual(sender.ask("sendmessage \"bad name\" hi"), ["ACK [2@0] {sendmessage} invalid channel name"])
        XCTAssertEqual(sender.ask("subscribe \"bad name\""), ["ACK [2@0] {subscribe} invalid channel name"])
        XCTAssertEqual(scribble.ask("subscribe mpdscribble"), ["ACK [56@0] {subscribe} already subscribed to this channel"])
        for i in 1...16 { XCTAssertEqual(sender.ask("subscribe c\(i)"), ["OK"]) }
        XCTAssertEqual(sender.ask("subscribe c17"), ["ACK [56@0] {subscribe} subscription list is full"], "16 at most, as MPD")
        XCTAssertEqual(sender.ask("unsubscribe nowhere"), ["ACK [50@0] {unsubscribe} not subscribed to this channel"])
        XCTAssertEqual(scribble.ask("unsubscribe mpdscribble"), ["OK"])
        XCTAssertEqual(sender.ask("sendmessage mpdscribble love"), ["ACK [50@0] {sendmessage} nobody is subscribed to this channel"])
        // 64 messages wait at most for one client; the 65th is not kept (and, with no other
        // subscriber, not sent).
        for _ in 0..<64 { XCTAssertEqual(sender.ask("sendmessage c1 x"), ["OK"]) }
        XCTAssertEqual(sender.ask("sendmessage c1 x"), ["ACK [50@0] {sendmessage} nobody is subscribed to this channel"])
        XCTAssertEqual(sender.ask("readmessages")?.count, 129)
    }

    /// Cantata 2.5.0 (mpd-interface/mpdconnection.cpp): on its idle connection `channels` tells
    /// whether cantata-dynamic runs (:2395: it looks for `cantata-dynamic-in`), then it subscribes
    /// to its own channels, taking `ACK [56@0]` for "already subscribed" (:2411).
    func testCantatasDynamicPlaylistChannels() throws {
        let dynamic = try MPDRawClient(path: socket), cantata = try MPDRawClient(path: socket)
        XCTAssertEqual(cantata.ask("channels"), ["OK"], "no cantata-dynamic yet")
        XCTAssertEqual(dynamic.ask("subscribe cantata-dynamic-in"), ["OK"])
        XCTAssertEqual(cantata.ask("channels"), ["channel: cantata-dynamic-in", "OK"])
        XCTAssertEqual(cantata.ask("subscribe \"cantata-dynamic-out\""), ["OK"])
        XCTAssertEqual(cantata.ask("subscribe \"cantata-dynamic-out\""), ["ACK [56@0] {subscribe} already subscribed to this channel"])
        XCTAssertEqual(cantata.ask("subscribe \"cantata-dynamic-out-host.local-4242\""), ["OK"])
        XCTAssertEqual(cantata.ask("sendmessage cantata-dynamic-in \"status\""), ["OK"])
        XCTAssertEqual(dynamic.ask("readmessages"), ["channel: cantata-dynamic-in", "message: status", "OK"])
    }

    /// mpc 0.34 and Debian's mpdscribble 0.24, for real: `mpc waitmessage` hears `mpc sendmessage`;
    /// mpdscribble connects over TCP, subscribes, and reads what is sent to it (it logs a message
    /// that is not `love`).
    func testMpcAndDebiansMpdscribble() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MPD_HOST"] = socket
        let waiting = try BackgroundCommand("/usr/bin/mpc", ["waitmessage", "news"], environment: environment)
        defer { waiting.stop() }
        try waitFor("mpc waits on its channel") { (try? runMPC(["channels"], socket: socket, port: nil).stdout.contains("news")) == true }
        try runMPC(["sendmessage", "news", "hello there"], socket: socket, port: nil)
        XCTAssertTrue(waiting.waitFor("hello there"), waiting.output)

        guard ProcessRunner.which("mpdscribble") != nil else { throw XCTSkip("mpdscribble is not installed (Debian: mpdscribble)") }
        let folder = NSTemporaryDirectory() + "previewd-scribble-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A scrobbler that writes to a file: nothing leaves the machine.
        try "verbose = 2\n\n[scrobbles]\nfile = \(folder)/scrobbles.log\n".write(toFile: folder + "/mpdscribble.conf", atomically: true, encoding: .utf8)
        let scribble = try BackgroundCommand("/usr/bin/mpdscribble", ["--no-daemon", "--conf", folder + "/mpdscribble.conf", "--log", "/dev/stderr",
                                                                     "--host", "127.0.0.1", "--port", String(port)])
        defer { scribble.stop(signal: SIGTERM) }
        XCTAssertTrue(eventually(timeout: 10) { scribble.errors.contains("connected to mpd 0.23.5") }, scribble.errors)
        try waitFor("mpdscribble subscribed") {
            (try? runMPC(["channels"], socket: socket, port: nil).stdout.split(separator: "\n").contains("mpdscribble")) == true
        }
        try runMPC(["sendmessage", "mpdscribble", "love"], socket: socket, port: nil)
        try runMPC(["sendmessage", "mpdscribble", "hello"], socket: socket, port: nil)
        XCTAssertTrue(eventually(timeout: 10) { scribble.errors.contains("Unrecognized client-to-client message") && scribble.errors.contains("hello") },
                      "mpdscribble read its messages: \(scribble.errors)")
        XCTAssertFalse(scribble.errors.contains("\"love\""), "love is a word it knows")
    }
}
