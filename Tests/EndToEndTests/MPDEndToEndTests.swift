import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// MPD's protocol as its own clients speak it, from Debian's packages: mpc through the private
/// socket and through TCP, python-mpd2, and a bare socket for what they would never send; the sound
/// checked on the null sink's monitor, the state through previewctl.
final class MPDEndToEndTests: DaemonTestCase {
    var port: UInt16 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessRunner.which("mpc") != nil else { throw XCTSkip("mpc is not installed (Debian: mpc)") }
    }

    /// previewd serving MPD on its socket and on a TCP port of loopback (plus `arguments`).
    func start(_ arguments: [String] = []) throws {
        (mpdSocket, port) = try startServingMPD(arguments)
    }

    var mpdSocket = ""

    /// `mpc ARGS` through the private socket (or TCP).
    @discardableResult
    func mpc(_ arguments: String..., tcp: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessRunner.Result {
        try runMPC(arguments, socket: tcp ? nil : mpdSocket, port: tcp ? port : nil, file: file, line: line)
    }

    /// `command` (a terminal client, `HOME` a folder of its own) in a tmux pane of 120 × 40; the
    /// pane and the folder go at the end of the test.
    func terminalClient(_ command: String) throws -> TerminalPane {
        let home = NSTemporaryDirectory() + "previewd-tui-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let pane = try TerminalPane("env HOME=\(TerminalPane.quoted(home)) \(command)", columns: 120, rows: 40,
                                    environment: ProcessInfo.processInfo.environment)
        addTeardownBlock {
            pane.close()
            try? FileManager.default.removeItem(atPath: home)
        }
        return pane
    }

    func testMpcPlaysSteersAndReadsThroughTheSocketAndTCP() throws {
        try start()
        let found = try mpc("search", "any", "sine")
        XCTAssertTrue(found.stdout.contains("itunes:track:1001"), found.stdout)
        XCTAssertTrue(try queue().items.isEmpty, "search looks without queuing")
        try mpc("findadd", "artist", "The Sine Waves")
        XCTAssertEqual(try queue().items.map { $0.track.trackId ?? 0 }, [1001, 1002, 1003, 1004, 1005, 3001, 3002])
        var mark = recorder.sampleCount
        try mpc("play")
        expectTone(440, after: mark, "mpc play")
        mark = recorder.sampleCount
        try mpc("next")
        expectTone(660, after: mark, "mpc next")
        mark = recorder.sampleCount
        try mpc("prev", tcp: true)
        expectTone(440, after: mark, "mpc prev through TCP")
        XCTAssertTrue(try mpc("current").stdout.contains("The Sine Waves - A Four Forty"))
        mark = recorder.sampleCount
        try mpc("pause")
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: mark), "mpc pause: silence")
        XCTAssertEqual(try status().state, .paused)
        mark = recorder.sampleCount
        try mpc("play")
        expectTone(440, after: mark, "mpc play resumes")

        try mpc("insert", "itunes:track:3002")
        XCTAssertEqual(try queue().items[1].track.trackId, 3002, "mpc insert: right after the current song")
        try mpc("add", "itunes:track:3001")
        XCTAssertEqual(try queue().items.last?.track.trackId, 3001)
        let playlist = try mpc("playlist").stdout.split(separator: "\n")
        XCTAssertEqual(playlist.count, 9)
        XCTAssertEqual(playlist.first, "The Sine Waves - A Four Forty")

        try mpc("volume", "50")
        XCTAssertEqual(try status().volume, 50, "the level previewctl volume 50 sets")
        XCTAssertTrue(try mpc("status", tcp: true).stdout.contains("volume: 50%"))
        try mpc("repeat", "on")
        try mpc("random", "on")
        try mpc("single", "on")
        try mpc("consume", "on")
        var now = try status()
        XCTAssertEqual(now.repeat, .all)
        XCTAssertTrue(now.shuffle)
        XCTAssertEqual(now.single, .on)
        XCTAssertTrue(now.consume)
        let modes = try mpc("status").stdout
        XCTAssertTrue(modes.contains("repeat: on") && modes.contains("random: on") && modes.contains("single: on") && modes.contains("consume: on"), modes)
        for mode in ["repeat", "random", "single", "consume"] { try mpc(mode, "off") }
        now = try status()
        XCTAssertEqual(now.repeat, .off)
        XCTAssertFalse(now.shuffle || now.consume)
        XCTAssertEqual(now.single, .off)

        try mpc("seek", "5")
        XCTAssertGreaterThanOrEqual(try status().positionMs, 4500, "mpc seek 5")
        let shown = try mpc("status").stdout
        XCTAssertTrue(shown.contains("[playing] #1/9"), shown)

        // idle player, woken by another client (previewctl).
        var environment = ProcessInfo.processInfo.environment
        environment["MPD_HOST"] = mpdSocket
        let idle = try BackgroundCommand("/usr/bin/mpc", ["idle", "player"], environment: environment)
        defer { idle.stop() }
        // Connected (the listener and the accepted socket both show the path); a change after
        // that is pending for it even before its idle arrives.
        try waitFor("mpc idle connected") { try ProcessRunner.run("/bin/cat", ["/proc/net/unix"]).stdout.components(separatedBy: mpdSocket).count > 2 }
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        XCTAssertTrue(idle.waitFor("player"), "mpc idle player woken by previewctl next: \(idle.output)")
        expectTone(990, after: mark, "the inserted track plays next")
    }

    func testAlbumartWritesTheCachedJPEGByteForByte() throws {
        try start()
        try mpc("findadd", "artist", "The Sine Waves")
        try mpc("play")
        let cached = try XCTUnwrap(try waitForStatus(timeout: 15, "the artwork is fetched") { $0.artwork != nil }.artwork)
        let out = NSTemporaryDirectory() + "previewd-albumart-\(getpid()).jpg"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let written = try ProcessRunner.run("/bin/sh", ["-c", "MPD_HOST='\(mpdSocket)' /usr/bin/mpc albumart itunes:track:1001 > '\(out)'"])
        XCTAssertEqual(written.status, 0, written.stderr)
        let expected = try Data(contentsOf: URL(fileURLWithPath: cached))
        XCTAssertGreaterThan(expected.count, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), expected, "the cached image, byte for byte")
        // In chunks smaller than the file: binarylimit.
        let raw = try MPDRawClient(path: mpdSocket)
        XCTAssertEqual(raw.ask("binarylimit 64"), ["OK"])
        XCTAssertTrue(raw.send("albumart itunes:track:1001 0"))
        XCTAssertEqual(raw.readLine(), "size: \(expected.count)")
        XCTAssertEqual(raw.readLine(), "binary: \(min(64, expected.count))")
        let missing = try XCTUnwrap(MPDRawClient(path: mpdSocket).ask("albumart itunes:track:999 0"))
        XCTAssertEqual(missing.last, "ACK [50@0] {albumart} No file exists")
    }

    func testSaveLoadAndListPlaylistsAreTheSavedLists() throws {
        try start()
        try mpc("findadd", "album", "Short Tones")
        try mpc("save", "brief")
        XCTAssertTrue(try mpc("lsplaylists").stdout.split(separator: "\n").contains("brief"))
        XCTAssertEqual(try daemon.ctl("lists").status, 0)
        XCTAssertTrue(try daemon.ctl("lists").stdout.contains("brief"), "previewd's own saved list")
        try mpc("clear")
        XCTAssertTrue(try queue().items.isEmpty)
        try mpc("load", "brief")
        XCTAssertEqual(try queue().items.map { $0.track.trackId ?? 0 }, [3001, 3002])
        XCTAssertEqual(try mpc("playlist", "brief").stdout.split(separator: "\n"), ["The Sine Waves - Brief Seven Seventy", "The Sine Waves - Brief Nine Ninety"])
        let again = try MPDRawClient(path: mpdSocket)
        XCTAssertEqual(again.ask("save brief"), ["ACK [56@0] {save} Playlist already exists"])
        XCTAssertEqual(again.ask("rm brief"), ["OK"])
        XCTAssertFalse(try mpc("lsplaylists").stdout.contains("brief"))

        // A list saved by another front-end (previewctl) wakes an idle stored_playlist, once.
        let idler = try MPDRawClient(path: mpdSocket)
        XCTAssertTrue(idler.send("idle stored_playlist"))
        XCTAssertEqual(try daemon.ctl("save", "from previewctl").status, 0)
        XCTAssertEqual(idler.response(), ["changed: stored_playlist", "OK"])

        // shuffle reorders the queue's songs (one change); status says the decoded audio format.
        try mpc("findadd", "artist", "The Sine Waves")
        let before = try queue()
        XCTAssertEqual(again.ask("shuffle"), ["OK"])
        let after = try queue()
        XCTAssertEqual(after.version, before.version + 1)
        XCTAssertEqual(Set(after.items.map(\.id)), Set(before.items.map(\.id)), "the same songs")
        try mpc("play")
        try waitForStatus(timeout: 15, "a track plays") { $0.state == .playing }
        XCTAssertTrue(again.ask("status")?.contains { $0.hasPrefix("audio: ") && $0.hasSuffix(":f:2") } == true, "status has audio")
    }

    func testPythonMPD2AndAServerThatDies() throws {
        try start()
        let script = """
            import json, sys, time, mpd
            c = mpd.MPDClient(); c.timeout = 20; c.connect(sys.argv[1])
            out = {"version": c.mpd_version}
            out["search"] = [s["file"] for s in c.search("artist", "sine waves")]
            c.add("itunes:track:1001"); c.add("itunes:track:1002")
            out["addid"] = c.addid("itunes:track:3002", 1)
            v = c.status()["playlist"]
            c.play(0); c.pause(1); c.pause(0); c.setvol(40); c.next(); c.previous(); c.repeat(1); c.random(1)
            c.single(1); c.consume(1); c.random(0); c.repeat(0); c.single(0); c.consume(0)
            c.seekcur(7.5)
            out["elapsed"] = float(c.status()["elapsed"])
            c.moveid(int(out["addid"]), 2); c.delete(0)   # the current song: the next one plays
            out["changes"] = [(s["pos"], s["file"]) for s in c.plchanges(v)]
            c.command_list_ok_begin(); c.status(); c.currentsong(); c.playlistinfo()
            st, cur, pl = c.command_list_end()
            out["list"] = [st["volume"], cur["file"], len(pl)]
            c.stop(); out["state"] = c.status()["state"]
            print(json.dumps(out)); print("READY", flush=True)
            while True:
                try:
                    c.ping(); time.sleep(0.05)
                except Exception as e:
                    print("LOST", type(e).__name__, flush=True); break
            """
        let client = try BackgroundCommand("/usr/bin/python3", ["-c", script, mpdSocket])
        XCTAssertTrue(client.waitFor("READY", timeout: 60), client.output)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(client.output.split(separator: "\n")[0].utf8)) as? [String: Any])
        XCTAssertEqual(report["version"] as? String, "0.23.5")
        XCTAssertEqual((report["search"] as? [String])?.first, "itunes:track:1001")
        XCTAssertGreaterThanOrEqual(report["elapsed"] as? Double ?? 0, 7.4, "seek near the end")
        let changes = try XCTUnwrap(report["changes"] as? [[String]])
        XCTAssertEqual(changes, [["0", "itunes:track:1002"], ["1", "itunes:track:3002"]], "plchanges: the two that moved up")
        XCTAssertEqual(report["list"] as? [AnyHashable], ["40", "itunes:track:1002", 2] as [AnyHashable])
        XCTAssertEqual(report["state"] as? String, "stop")
        XCTAssertEqual(daemon.stop(), 0)
        daemon = nil
        XCTAssertTrue(client.waitFor("LOST"), "the client sees the server go: \(client.output)")
        // python-mpd2 says ConnectionError for the server's close; when a ping was still unread as
        // previewd closed, the kernel resets instead, and the socket's own error comes through.
        let lost = ["ConnectionError", "ConnectionResetError", "BrokenPipeError"]
        XCTAssertTrue(lost.contains { client.output.contains("LOST " + $0) }, client.output)
        client.stop()
    }

    func testBadInputGetsACKOrTheDoorAndPreviewdServesOn() throws {
        try start()
        let raw = try MPDRawClient(path: mpdSocket)
        XCTAssertEqual(raw.greeting, "OK MPD 0.23.5")
        XCTAssertEqual(raw.ask("nosuchcommand"), [#"ACK [5@0] {} unknown command "nosuchcommand""#])
        XCTAssertEqual(raw.ask("play 1 2 3"), [#"ACK [2@0] {play} too many arguments for "play""#])
        XCTAssertTrue(raw.send(bytes: [0x01, 0xfe, 0xff, 0x00, 0x22, 0x0a]))
        XCTAssertEqual(raw.response()?.first?.hasPrefix("ACK [5@0] {}"), true, "binary garbage")
        XCTAssertTrue(raw.send("command_list_begin") && raw.send("ping") && raw.send("status"))
        XCTAssertEqual(raw.ask("command_list_end")?.last, "OK", "a list answers once, at its end")
        XCTAssertTrue(raw.send("command_list_ok_begin") && raw.send("ping") && raw.send("idle") && raw.send("command_list_end"))
        XCTAssertEqual(raw.response(), ["list_OK", "ACK [2@1] {idle} idle is not allowed in a command list"])
        XCTAssertEqual(raw.ask("ping"), ["OK"], "the connection goes on")

        let http = try MPDRawClient(path: mpdSocket)
        XCTAssertTrue(http.send("GET / HTTP/1.1\r\nHost: localhost\r\n"))
        XCTAssertTrue(http.isClosedByServer(), "an HTTP request closes the connection, as MPD does")

        let huge = try MPDRawClient(port: port)
        huge.send(bytes: [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20) + [0x0a])
        XCTAssertTrue(huge.isClosedByServer(), "a 10 MiB line ends the connection")

        // 200 clients waiting in idle and one stalled mid-line: others are still answered, and each idle hears once.
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        var idlers: [MPDRawClient] = []
        for _ in 0..<200 {
            let client = try MPDRawClient(path: mpdSocket)
            XCTAssertTrue(client.send("idle player"))
            idlers.append(client)
        }
        let stalled = try MPDRawClient(port: port)
        XCTAssertTrue(stalled.send(bytes: Array("stat".utf8)))
        let other = try MPDRawClient(port: port)
        XCTAssertEqual(other.ask("ping"), ["OK"])
        XCTAssertEqual(try daemon.ctl("play").status, 0)
        for client in idlers { XCTAssertEqual(client.response(), ["changed: player", "OK"]) }
        XCTAssertTrue(idlers[0].send("noidle"), "noidle out of idle: no answer")
        XCTAssertEqual(idlers[0].ask("ping"), ["OK"])
        XCTAssertTrue(idlers[1].send("idle mixer"))
        XCTAssertEqual(idlers[1].ask("noidle"), ["OK"], "noidle ends an idle with nothing changed")
        XCTAssertTrue(daemon.isRunning)

        // A preview URL the URL policy allows (here the stand-in, the API's own origin) is a song too.
        let byURL = try XCTUnwrap(other.ask("addid \(standIn.baseURL)/previews/tone-550.m4a"))
        XCTAssertTrue(byURL.first?.hasPrefix("Id: ") == true, "\(byURL)")
        XCTAssertEqual(other.ask("addid file:///etc/passwd"), ["ACK [4@0] {addid} Access denied"], "as MPD to a client not on its machine")

        // Stopping previewd ends the connections waiting in idle at once: they see the end.
        XCTAssertTrue(idlers[2].send("idle stored_playlist"))   // nothing will change it
        XCTAssertEqual(daemon.stop(), 0)
        daemon = nil
        XCTAssertTrue(idlers[2].isClosedByServer())
    }

    func testAPasswordBeforeAnythingButPingAndNoOpenPortWithoutOne() throws {
        try start(["--mpd-password", "s3cret"])
        let raw = try MPDRawClient(port: port)
        XCTAssertEqual(raw.ask("ping"), ["OK"])
        XCTAssertEqual(raw.ask("status"), [#"ACK [4@0] {status} you don't have permission for "status""#])
        XCTAssertEqual(raw.ask("password nope"), ["ACK [3@0] {password} incorrect password"])
        let refused = try XCTUnwrap(raw.ask("notcommands"))
        XCTAssertTrue(refused.contains("command: play"), "\(refused)")
        XCTAssertEqual(raw.ask("password s3cret"), ["OK"])
        XCTAssertEqual(raw.ask("status")?.last, "OK")
        XCTAssertEqual(raw.ask("notcommands"), ["OK"])
        var environment = ProcessInfo.processInfo.environment
        environment["MPD_HOST"] = "s3cret@127.0.0.1"
        environment["MPD_PORT"] = String(port)
        XCTAssertEqual(try ProcessRunner.run("/usr/bin/mpc", ["status"], environment: environment).status, 0)

        let binary = try XCTUnwrap(BuildProducts.path("previewd"))
        let open = try ProcessRunner.run(binary, ["--mpd", "0.0.0.0:\(port)", "--socket", NSTemporaryDirectory() + "previewd-never.sock"])
        XCTAssertEqual(open.status, 64)
        XCTAssertTrue(open.stderr.contains("not a loopback address") && open.stderr.contains("--mpd-password"), open.stderr)
    }
}
