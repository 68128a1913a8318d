import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// `--output http://127.0.0.1:PORT/previewd.mp3`: previewd as MPD's httpd output. FFmpeg plays the
/// stream as a listener's player would and the tones it decodes are checked against the queue; raw
/// listeners check the ICY titles, the bounds (a listener that never reads, the 17th) and the
/// address rules (the secret path beyond loopback, the Host header); bad values refuse to start.
final class HTTPStreamEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only
    private var port: UInt16 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        port = try LoopbackPort.free()
    }

    private func start(_ path: String = "/previewd.mp3", host: String = "127.0.0.1", settings: String = "",
                       environment: [String: String]? = nil) throws {
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", "http://\(host):\(port)\(path)" + settings],
                                   environment: environment)
    }

    /// The tones FFmpeg decodes from the stream are the queue's, in order; a listener that asked
    /// for ICY metadata sees the title change with the track.
    func testAPlayerHearsTheQueueAndTheTitleFollowsTheTrack() throws {
        for path in ["/previewd.mp3", "/previewd.ogg"] {
            if daemon != nil { XCTAssertEqual(daemon.stop(), 0); recorder.stop(); port = try LoopbackPort.free() }
            try start(path)
            recorder = try MonitorRecorder(stream: "http://127.0.0.1:\(port)\(path)")
            let titles = try StreamListenerClient(port: port, path: "/any/path.mp3", metadata: true)
            XCTAssertEqual(titles.readHead(), 200)
            let interval = try XCTUnwrap(titles.header("icy-metaint").flatMap { Int($0) }, titles.head)
            XCTAssertEqual(titles.header("Content-Type"), path.hasSuffix(".mp3") ? "audio/mpeg" : "audio/ogg")
            // The player is connected (it gets the silence a stopped stream carries) before the queue starts.
            XCTAssertNotNil(recorder.waitFor(after: 0, timeout: 20) { _, _, _ in true }, "\(path): nothing decoded; previewd logged:\n\(daemon.log)")
            let mark = recorder.sampleCount
            XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)   // 770 Hz for 2 s, then 990 Hz for 2 s
            let first = try XCTUnwrap(recorder.waitForTone(770, after: mark), "\(path): heard \(recorder.toneSequence(after: mark))")
            let second = try XCTUnwrap(recorder.waitForTone(990, after: first), "\(path): heard \(recorder.toneSequence(after: mark))")
            XCTAssertEqual(recorder.toneSequence(after: mark), [770, 990], "\(path): only the queue's tones, in order")
            XCTAssertGreaterThan(second - first, 48_000 * 3 / 2, "\(path): the first track whole")
            let seen = titles.readTitles(interval: interval) { $0.contains("StreamTitle='The Sine Waves - Brief Nine Ninety';") }
            XCTAssertEqual(Array(seen.drop { !$0.contains("Seven Seventy") }.prefix(2)),
                           ["StreamTitle='The Sine Waves - Brief Seven Seventy';", "StreamTitle='The Sine Waves - Brief Nine Ninety';"],
                           "\(path): titles \(seen)")
        }
    }

    /// Paused, the stream goes on as silence (players keep it, as with MPD); resumed, the track
    /// continues in the same connection.
    func testPausedTheStreamCarriesSilenceAndResumeContinues() throws {
        try start()
        recorder = try MonitorRecorder(stream: "http://127.0.0.1:\(port)/previewd.mp3")
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let heard = try XCTUnwrap(recorder.waitForTone(440, after: 0, timeout: 20), "heard \(recorder.toneSequence(after: 0))")
        XCTAssertNotNil(recorder.waitFor(after: heard + 24_000) { _, _, _ in true })
        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        let quiet = try XCTUnwrap(recorder.waitFor(after: recorder.sampleCount) { _, _, rms in rms < 0.001 }, "no silence after pause")
        // A second of silence arrives: the stream did not stop.
        XCTAssertNotNil(recorder.waitFor(after: quiet + 48_000) { _, _, _ in true }, "the stream stopped while paused")
        XCTAssertEqual(recorder.silentWindows(from: quiet, to: quiet + 48_000, size: 2_400),
                       Array(stride(from: quiet, to: quiet + 48_000 - 2_400, by: 2_400)), "sound while paused")
        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: quiet + 48_000), "resume did not continue in the stream")
    }

    /// Beside the speakers (`--output pulse --output http://…`): the stream's listener hears what the
    /// null sink plays, the same tones in the same order; the speakers off, the stream keeps the clock
    /// and plays on; the stream off, the speakers play on. MPD's `outputs` lists the stream as `httpd`
    /// (what Stylophone looks for before it offers its button).
    func testBesideTheSpeakersTheStreamCarriesWhatTheyPlay() throws {
        let mpdSocket = NSTemporaryDirectory() + "previewd-stream-mpd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        try startOnSharedServer(["--output", "pulse,name=Speakers", "--output", "http://127.0.0.1:\(port)/previewd.mp3,name=Stream",
                                 "--mpd", mpdSocket])
        let stream = try MonitorRecorder(stream: "http://127.0.0.1:\(port)/previewd.mp3")
        defer { stream.stop() }
        XCTAssertNotNil(stream.waitFor(after: 0, timeout: 20) { _, _, _ in true }, "nothing decoded; previewd logged:\n\(daemon.log)")
        XCTAssertEqual(try status().outputs.map(\.plugin), ["pulse", "httpd"])
        let outputs = try XCTUnwrap(try MPDRawClient(path: mpdSocket).ask("outputs"))
        XCTAssertEqual(Array(outputs.drop { $0 != "outputid: 1" }.prefix(4)),
                       ["outputid: 1", "outputname: Stream", "plugin: httpd", "outputenabled: 1"], "\(outputs)")

        let (speakers, listener) = (recorder.sampleCount, stream.sampleCount)
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)   // 770 Hz for 2 s, then 990 Hz for 2 s
        for (heard, mark, name) in [(recorder!, speakers, "the speakers"), (stream, listener, "the stream")] {
            let first = try XCTUnwrap(heard.waitForTone(770, after: mark), "\(name): \(heard.toneSequence(after: mark))")
            XCTAssertNotNil(heard.waitForTone(990, after: first), "\(name): \(heard.toneSequence(after: mark))")
        }
        try waitForStatus("the queue played to its end") { $0.state == .stopped }
        XCTAssertEqual(recorder.toneSequence(after: speakers), [770, 990], "the speakers")
        XCTAssertEqual(stream.toneSequence(after: listener), [770, 990], "the stream: what the speakers played")

        // The speakers off: the stream keeps the clock and carries the next queue.
        XCTAssertEqual(try daemon.ctl("output", "0", "off").status, 0)
        var mark = stream.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(stream.waitForTone(440, after: mark), "the stream without the speakers: \(stream.toneSequence(after: mark))")
        XCTAssertEqual(try status().outputs.map(\.clock), [false, true])
        // The reverse: the speakers on, the stream off: the speakers play on.
        XCTAssertEqual(try daemon.ctl("output", "0", "on").status, 0)
        XCTAssertEqual(try daemon.ctl("output", "1", "off").status, 0)
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        XCTAssertNotNil(recorder.waitForTone(660, after: mark), "the speakers without the stream: \(recorder.toneSequence(after: mark))")
        XCTAssertEqual(try status().outputs.map(\.clock), [true, false])
    }

    /// A listener that stops reading is dropped (its queue full) while another plays on; the 17th
    /// listener is refused, and a place freed is taken again.
    func testAListenerThatNeverReadsIsDroppedAndThe17thIsRefused() throws {
        try start(settings: ",bitrate=320")
        recorder = try MonitorRecorder(stream: "http://127.0.0.1:\(port)/previewd.mp3")
        let stalled = try StreamListenerClient(port: port, path: "/previewd.mp3", receiveBuffer: 4096)
        XCTAssertEqual(stalled.readHead(), 200)
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0, timeout: 20), "heard \(recorder.toneSequence(after: 0))")
        // 2 s of queue and the kernel's buffers at 40 kB/s: dropped within seconds, never waited for.
        let dropped = eventually(timeout: 30, interval: 0.2) { !isEstablished(clientPort: stalled.localPort) }
        XCTAssertTrue(dropped, "the listener that never reads is still served")
        XCTAssertTrue(stalled.endsWithin(seconds: 10), "the dropped listener's connection did not end")
        let mark = recorder.sampleCount
        XCTAssertNotNil(recorder.waitFor(after: mark + 48_000) { _, tone, _ in tone == 440 }, "the other listener stopped hearing")

        // 16 listeners at most: one is the player, 15 more are let in, the 17th answered 503.
        let others = try (0..<15).map { _ in try StreamListenerClient(port: port, path: "/previewd.mp3") }
        for other in others { XCTAssertEqual(other.readHead(), 200) }
        let seventeenth = try StreamListenerClient(port: port, path: "/previewd.mp3")
        XCTAssertEqual(seventeenth.readHead(), 503, seventeenth.head)
        recorder.stop()   // a place is freed once previewd sees the player go
        XCTAssertTrue(try eventually(timeout: 10, interval: 0.1) {
            try StreamListenerClient(port: port, path: "/previewd.mp3").readHead() == 200
        }, "the freed place was not given again")
        withExtendedLifetime(others) {}
    }

    /// Beyond loopback only the secret path serves (anything else is 404); on every address a Host
    /// that names another site is refused (a DNS rebinding page); without `secret=` one is made and
    /// kept 0600, and the URL with it is logged.
    func testBeyondLoopbackOnlyTheSecretPathServesAndTheHostIsChecked() throws {
        let config = NSTemporaryDirectory() + "previewd-stream-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: config) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config
        try start(host: "0.0.0.0", environment: environment)
        let secretFile = config + "/previewd/stream-secret"
        let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(HTTPStreamSettings.isUsableSecret(secret), secret)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: secretFile)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        try waitFor("the secret URL in the log") { self.daemon.log.contains(":\(self.port)/\(secret)/previewd.mp3") }

        let plain = try StreamListenerClient(port: port, path: "/previewd.mp3")
        XCTAssertEqual(plain.readHead(), 404, "a LAN address without the secret")
        let wrong = try StreamListenerClient(port: port, path: "/\(String(secret.reversed()))/previewd.mp3")
        XCTAssertEqual(wrong.readHead(), 404)
        let right = try StreamListenerClient(port: port, path: "/\(secret)/previewd.mp3")
        XCTAssertEqual(right.readHead(), 200)
        XCTAssertFalse(right.read(4096).isEmpty, "no stream on the secret path")
        let rebound = try StreamListenerClient(port: port, path: "/\(secret)/previewd.mp3", host: "attacker.example:\(port)")
        XCTAssertEqual(rebound.readHead(), 421)

        // The same secret after a restart: the URL typed into a player stays good.
        XCTAssertEqual(daemon.stop(), 0)
        try start(host: "0.0.0.0", environment: environment)
        XCTAssertEqual(try StreamListenerClient(port: port, path: "/\(secret)/previewd.mp3").readHead(), 200)
    }

    /// A request head that never ends holds nothing: the connection is closed after the head's
    /// time, and listeners come in meanwhile.
    func testASlowRequestHeadIsClosed() throws {
        try start()
        let slow = try StreamListenerClient(port: port, path: "/previewd.mp3", endHead: false)
        let partial = try (0..<20).map { _ in try StreamListenerClient(port: port, path: "/p.mp3", endHead: false) }
        XCTAssertEqual(try StreamListenerClient(port: port, path: "/previewd.mp3").readHead(), nil,
                       "beyond 16 unfinished heads, a connection is closed at once")
        XCTAssertTrue(slow.endsWithin(seconds: 10), "an unfinished head was kept past its time")
        XCTAssertEqual(try StreamListenerClient(port: port, path: "/previewd.mp3").readHead(), 200)
        withExtendedLifetime(partial) {}
    }

    /// A stream that cannot work is refused before previewd starts: a bad suffix, bitrate or
    /// setting (exit 64, as every bad option), or a port that is taken (exit 1, as an unknown ALSA device).
    func testAStreamThatCannotWorkIsRefusedAtStart() throws {
        let previewd = try XCTUnwrap(BuildProducts.path("previewd"))
        let socket = NSTemporaryDirectory() + "previewd-stream-\(getpid()).sock"
        let cases: [(String, String)] = [
            ("http://127.0.0.1:\(port)/previewd.wav", "the path must end in .mp3"),
            ("http://127.0.0.1:\(port)/previewd.mp3,bitrate=100", "bitrate must be one of 32, 40"),
            ("http://127.0.0.1:\(port)/previewd.opus,bitrate=600", "bitrate must be one of 6–510"),
            ("http://127.0.0.1:\(port)/previewd.mp3,listeners=0", "listeners must be 1–256"),
            ("http://127.0.0.1:\(port)/previewd.mp3,colour=red", "unknown option colour= (it takes bitrate=, listeners=, name=, secret=)"),
            ("http://127.0.0.1:\(port)/previewd.mp3,secret=short", "secret must be 16–128"),
            ("http://127.0.0.1:\(port)", "needs a path naming its format"),
            ("pulse,bitrate=128", "--output pulse: unknown option bitrate="),
        ]
        for (output, reason) in cases {
            let result = try ProcessRunner.run(previewd, ["--output", output, "--socket", socket, "--mpd", "off"], timeout: 20)
            XCTAssertEqual(result.status, 64, "\(output): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(reason), "\(output): \(result.stderr)")
        }
        try start()   // the port is now taken
        let taken = try ProcessRunner.run(previewd, ["--output", "http://127.0.0.1:\(port)/other.mp3", "--socket", socket,
                                                     "--mpd", "off", "--api-base", standIn.baseURL], timeout: 20)
        XCTAssertEqual(taken.status, 1, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("Address already in use"), taken.stderr)
    }

    /// True while previewd's side of the connection from `clientPort` is established.
    private func isEstablished(clientPort: UInt16) -> Bool {
        let result = try? ProcessRunner.run("/usr/bin/ss", ["-Htn", "state", "established", "( sport = :\(port) and dport = :\(clientPort) )"], timeout: 5)
        return result?.stdout.isEmpty == false
    }
}
