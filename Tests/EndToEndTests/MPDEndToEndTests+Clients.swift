import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// The MPD clients that cannot run here, replayed from their own sources on a bare socket: each
/// sequence names the client, its version and the file it comes from. Home Assistant's calls go
/// through python-mpd2, the library it uses.
extension MPDEndToEndTests {
    /// The lookups the stand-in has answered so far.
    private var lookups: Int { standIn.requestLog.filter { $0.contains("/lookup?") }.count }

    /// rmpc, Cantata and M.A.L.P.: connect, browse, edit; Home Assistant's calls.
    func testRmpcCantataMALPAndHomeAssistantSequences() throws {
        try start()
        // rmpc 0.11.0, rmpc-mpd/src/client.rs: `init` sends binarylimit 2^18 then commands;
        // `reconnect` (after any disconnect) commands then binarylimit 5 MiB.
        let rmpc = try MPDRawClient(path: mpdSocket)
        XCTAssertEqual(rmpc.ask("binarylimit 262144"), ["OK"])
        XCTAssertTrue(rmpc.ask("commands")?.contains("command: swapid") == true)
        let again = try MPDRawClient(path: mpdSocket)
        XCTAssertTrue(again.ask("commands")?.contains("command: playlistmove") == true)
        XCTAssertEqual(again.ask("binarylimit 5242880"), ["OK"], "rmpc's reconnect")
        XCTAssertEqual(again.ask("binarylimit 8384512"), ["OK"], "MPD's most: 8 MiB less 4 KiB")
        XCTAssertEqual(again.ask("binarylimit 8384513"), ["ACK [2@0] {binarylimit} Number too large: 8384513"])
        XCTAssertEqual(again.ask("binarylimit 63"), ["ACK [2@0] {binarylimit} Value too small"])
        // rmpc-mpd/src/mpd_client.rs: queue sort by swap/swapid, saved-list reorder, an output's toggle.
        XCTAssertEqual(again.ask("findadd artist \"The Sine Waves\""), ["OK"])
        let ids = try queue().items.map(\.id)
        XCTAssertEqual(again.ask("swap 0 2"), ["OK"])
        XCTAssertEqual(again.ask("swapid \(ids[0]) \(ids[1])"), ["OK"])
        XCTAssertEqual(try queue().items.map(\.id).prefix(3), [ids[2], ids[0], ids[1]])
        XCTAssertEqual(again.ask("swap 0 99"), ["ACK [2@0] {swap} Bad song index"])
        XCTAssertEqual(again.ask("swapid \(ids[0]) 99999"), ["ACK [50@0] {swapid} No such song"])
        XCTAssertEqual(again.ask("save \"sorted\""), ["OK"])
        XCTAssertEqual(again.ask("playlistmove \"sorted\" 0 2"), ["OK"])
        XCTAssertEqual(again.ask("listplaylist \"sorted\"")?.prefix(3),
                       ["file: itunes:track:\(try queue().items[1].track.trackId ?? 0)",
                        "file: itunes:track:\(try queue().items[2].track.trackId ?? 0)",
                        "file: itunes:track:\(try queue().items[0].track.trackId ?? 0)"])
        XCTAssertEqual(again.ask("playlistmove \"sorted\" 0 99"), ["ACK [2@0] {playlistmove} Bad song index"])

        // Cantata 2.5.0, mpd-interface/mpdconnection.cpp: `stats` all zero means Mopidy; lists are
        // kept only when `Last-Modified:` follows `playlist:` (mpdparseutils.cpp parsePlaylists).
        let cantata = try MPDRawClient(path: mpdSocket)
        XCTAssertTrue(cantata.ask("stats")?.contains("uptime: 0") == false, "uptime 1 in the first second")
        for command in ["listplaylists", "lsinfo \"\""] {
            let lines = try XCTUnwrap(cantata.ask(command))
            let at = try XCTUnwrap(lines.firstIndex(of: "playlist: sorted"), "\(command): \(lines)")
            XCTAssertTrue(lines[at + 1].hasPrefix("Last-Modified: 20") && lines[at + 1].hasSuffix("Z"), lines[at + 1])
        }
        XCTAssertEqual(cantata.ask("search any \"sine\"")?.first, "file: itunes:track:1001")
        XCTAssertEqual(cantata.ask("search file \"sine\""), ["OK"], "Cantata's second search of an `any` search")
        XCTAssertEqual(cantata.ask("replay_gain_mode album"), ["OK"])
        XCTAssertEqual(cantata.ask("replay_gain_status"), ["replay_gain_mode: track", "OK"], "a preview has no album gain")
        XCTAssertEqual(cantata.ask("replay_gain_mode off"), ["OK"])
        XCTAssertEqual(try status().normalization, .off, "the engine's normalisation, as --normalize")
        XCTAssertEqual(try daemon.ctl("normalize", "track").status, 0)
        XCTAssertEqual(cantata.ask("replay_gain_status"), ["replay_gain_mode: track", "OK"], "one setting, every front-end")
        XCTAssertEqual(cantata.ask("replay_gain_mode loud"), ["ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode"])
        // Its add: each file, a move to where it goes, its priority (mpdconnection.cpp `add`).
        let length = try queue().items.count
        XCTAssertEqual(cantata.ask("command_list_begin\nadd \"itunes:track:6001\"\nmove \(length) 0\nprio 5 0 0\ncommand_list_end"), ["OK"])
        XCTAssertEqual(cantata.ask("playlistinfo 0")?.filter { $0.hasPrefix("file:") || $0.hasPrefix("Prio:") },
                       ["file: itunes:track:6001", "Prio: 5"])
        XCTAssertEqual(cantata.ask("playlistinfo \(length + 1)"), ["OK"], "at the queue's length: empty")
        XCTAssertEqual(cantata.ask("playlistinfo \(length + 2)"), ["ACK [2@0] {playlistinfo} Bad song index"])

        // M.A.L.P. (gateship-one/malp, mpdprotocol/MPDCommands.java): the library tabs and the file
        // browser, whose `list album base` answered by an error switches it to Mopidy's ways.
        let malp = try MPDRawClient(path: mpdSocket)
        XCTAssertTrue(malp.ask("tagtypes")?.contains("tagtype: AlbumArtist") == true)
        XCTAssertEqual(malp.ask("list album base \"Music\" group albumartist group date"), ["OK"])
        XCTAssertEqual(malp.ask("list album group albumartist group date"), ["OK"])
        XCTAssertEqual(malp.ask("search file \"tone\""), ["OK"])
        XCTAssertEqual(malp.ask("searchadd file \"tone\""), ["OK"])
        XCTAssertEqual(malp.ask("find \"(modified-since '2020-01-01T00:00:00Z')\""), ["OK"])
        XCTAssertEqual(malp.ask("playlistsearch \"(base 'Music')\""), ["OK"])
        XCTAssertEqual(malp.ask("playlistfind \"(prio >= 5)\"")?.first, "file: itunes:track:6001")
        XCTAssertEqual(malp.ask("find \"(AudioFormat =~ '44100:*:*')\""), ["OK"])
        XCTAssertEqual(malp.ask("outputs"), ["outputid: 0", "outputname: pulse", "plugin: pulse", "outputenabled: 1", "OK"])
        XCTAssertEqual(malp.ask("toggleoutput 0"), ["OK"])
        XCTAssertTrue(malp.ask("outputs")?.contains("outputenabled: 0") == true)
        XCTAssertFalse(try status().outputEnabled)
        XCTAssertEqual(malp.ask("enableoutput 1"), ["ACK [50@0] {enableoutput} No such audio output"])
        XCTAssertEqual(malp.ask("enableoutput 0"), ["OK"])
        XCTAssertEqual(try daemon.ctl("output", "off").status, 0)
        XCTAssertTrue(malp.ask("outputs")?.contains("outputenabled: 0") == true, "previewctl's output is MPD's")
        XCTAssertTrue(try daemon.ctl("output").stdout.contains("volume"), "toggled back on")
        XCTAssertTrue(try status().outputEnabled)
        XCTAssertEqual(malp.ask("update"), ["updating_db: 1", "OK"])
        // `update` as MPD's job starts; `database` only once a renewal changed it.
        XCTAssertEqual(malp.ask("idle update database")?.filter { $0 != "changed: database" }, ["changed: update", "OK"])

        // Home Assistant (homeassistant/components/mpd/media_player.py) through python-mpd2: its
        // update (commands, status, currentsong, listplaylists), play_media of a playlist and of a
        // URL (clear, load or add, play), volume, seek, repeat, shuffle.
        let script = """
            import json, sys, mpd
            c = mpd.MPDClient(); c.timeout = 20; c.connect(sys.argv[1])
            out = {"commands": "readpicture" in c.commands()}
            c.status(); c.currentsong(); out["lists"] = [p["playlist"] for p in c.listplaylists()]
            c.clear(); c.load("sorted"); c.play()
            c.setvol(60); c.seekcur(3); c.repeat(1); c.single(0); c.random(1); c.pause(1); c.pause(0)
            out["state"] = c.status()["state"]
            c.clear()
            try:
                c.add("http://192.168.1.20:8123/api/tts_proxy/hello.mp3")
            except mpd.CommandError as e:
                out["tts"] = str(e)
            c.add("itunes:track:1001"); c.play()
            out["file"] = c.currentsong()["file"]
            print(json.dumps(out), flush=True)
            """
        let ha = try ProcessRunner.run("/usr/bin/python3", ["-c", script, mpdSocket], timeout: 60)
        XCTAssertEqual(ha.status, 0, ha.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(ha.stdout.utf8)) as? [String: Any], ha.stdout)
        XCTAssertEqual(report["commands"] as? Bool, true)
        XCTAssertEqual(report["lists"] as? [String], ["sorted"])
        XCTAssertEqual(report["state"] as? String, "play")
        XCTAssertTrue((report["tts"] as? String)?.contains("[50@0] {add} No such song") == true, "a LAN address is refused: \(report)")
        XCTAssertEqual(report["file"] as? String, "itunes:track:1001")
    }

    /// Adds in command lists: 200 of seen tracks make no catalog call; unseen ones one lookup; a
    /// refused add leaves an earlier `clear` undone (the list is checked first).
    func testCommandListsOfAddsUseTheTrackMemoryAndRefuseBeforeChanging() throws {
        try start()
        let client = try MPDRawClient(path: mpdSocket)
        XCTAssertEqual(client.ask("search any \"sine\"")?.first, "file: itunes:track:1001")
        let before = lookups
        let seen = [1001, 1002, 1003, 1004, 1005]
        let adds = (0..<200).map { "add itunes:track:\(seen[$0 % seen.count])" }
        XCTAssertEqual(client.ask((["command_list_begin"] + adds + ["command_list_end"]).joined(separator: "\n")), ["OK"])
        XCTAssertEqual(try queue().items.count, 200)
        XCTAssertEqual(lookups, before, "200 adds of seen tracks: no catalog call")

        // Unseen ids (M.A.L.P.'s, MPDroid's, rmpc's "add the selection"): one lookup for them all.
        let unseen = ["addid itunes:track:5001", "addid itunes:track:6001", "addid itunes:track:6002 0"]
        let answer = try XCTUnwrap(client.ask((["command_list_ok_begin"] + unseen + ["command_list_end"]).joined(separator: "\n")))
        XCTAssertEqual(answer.filter { $0.hasPrefix("Id: ") }.count, 3, "\(answer)")
        XCTAssertEqual(answer.filter { $0 == "list_OK" }.count, 3)
        XCTAssertEqual(lookups, before + 1, "the unseen ids in one lookup")

        // Home Assistant's TTS as a list, and an unknown id: refused before `clear` ran.
        let length = try queue().items.count
        XCTAssertEqual(client.ask("command_list_begin\nclear\nadd \"http://192.168.1.20:8123/api/tts_proxy/x.mp3\"\nplay\ncommand_list_end")?.first?
            .hasPrefix("ACK [50@1] {add} No such song"), true)
        XCTAssertEqual(client.ask("command_list_begin\nclear\nadd itunes:track:999999\ncommand_list_end"),
                       ["ACK [50@1] {add} No such song: not found in the catalog"])
        XCTAssertEqual(try queue().items.count, length, "the queue is as it was")
    }

    /// myMPD's play after an error and "play after current", its priority in random mode; MPDroid's
    /// two connections and its reconnect after an ACK.
    func testMyMPDAndMPDroidSequences() throws {
        try start()
        let mympd = try MPDRawClient(path: mpdSocket)
        // A preview that cannot be fetched: the track fails, status says so.
        XCTAssertEqual(mympd.ask("add \"\(standIn.baseURL)/previews/missing.m4a\""), ["OK"])
        XCTAssertEqual(mympd.ask("play"), ["OK"])
        waitFor("the failed track shows in status") { mympd.ask("status")?.contains { $0.hasPrefix("error: ") } == true }
        // myMPD 25.3.0, src/mympd_api/status.c mympd_api_status_clear_error: clearerror before play.
        XCTAssertEqual(mympd.ask("clearerror"), ["OK"])
        XCTAssertEqual(mympd.ask("status")?.contains { $0.hasPrefix("error: ") }, false)
        XCTAssertNil(try queue().items.first?.failure, "the item may be tried again")
        XCTAssertEqual(mympd.ask("clear"), ["OK"])

        // htdocs/js/queue.js playAfterCurrent → src/mympd_api/queue.c: `moveid ID +0` (libmpdclient's
        // whence AFTER_CURRENT) in a command list.
        XCTAssertEqual(mympd.ask("findadd artist \"The Sine Waves\""), ["OK"])
        var items = try queue().items
        XCTAssertEqual(mympd.ask("play 0"), ["OK"])
        XCTAssertEqual(mympd.ask("command_list_begin\nmoveid \(items[4].id) +0\ncommand_list_end"), ["OK"])
        XCTAssertEqual(try queue().items.map(\.id).prefix(2), [items[0].id, items[4].id], "after the current song, not at the top")
        XCTAssertEqual(mympd.ask("moveid \(items[0].id) +0"), ["ACK [2@0] {moveid} Cannot move current song relative to itself"])
        XCTAssertEqual(mympd.ask("moveid \(items[3].id) -0"), ["OK"])
        XCTAssertEqual(try queue().items.map(\.id).prefix(2), [items[3].id, items[0].id], "-0: before the current song")
        // In random mode it raises the priority over the next song's instead (queue.c prio_set_highest).
        XCTAssertEqual(mympd.ask("random 1"), ["OK"])
        items = try queue().items
        let next = try XCTUnwrap(mympd.ask("status")?.first { $0.hasPrefix("nextsongid: ") }).dropFirst(12)
        let wanted = try XCTUnwrap(items.first { String($0.id) != next && $0.id != (try? status().id) })
        XCTAssertEqual(mympd.ask("playlistid \(next)")?.contains("Prio: 1"), false)
        XCTAssertEqual(mympd.ask("prioid 1 \(wanted.id)"), ["OK"])
        XCTAssertTrue(mympd.ask("status")?.contains("nextsongid: \(wanted.id)") == true, "priority orders what random plays next")
        XCTAssertEqual(mympd.ask("prio 256 0"), ["ACK [2@0] {prio} Number too large: 256"])

        // MPDroid 1.07.2 (JMPDComm/src/main/java/org/a0z/mpd/MPD.java): one connection waits in idle
        // (MPDStatusMonitor), another sends; an ACK makes it drop its socket and connect again
        // (connection/MPDConnection.java CommandProcessor), then resend a retryable command.
        XCTAssertEqual(mympd.ask("stop"), ["OK"])   // no track change meanwhile
        let idle = try MPDRawClient(path: mpdSocket)
        XCTAssertTrue(idle.send("idle"))
        var commands = try MPDRawClient(path: mpdSocket)
        XCTAssertEqual(commands.ask("disableoutput 0"), ["OK"])
        XCTAssertEqual(idle.response(), ["changed: output", "OK"])
        XCTAssertEqual(commands.ask("seekid 99999 3")?.first?.hasPrefix("ACK ["), true)
        commands = try MPDRawClient(path: mpdSocket)   // its reconnect
        XCTAssertEqual(commands.ask("enableoutput 0"), ["OK"])
        XCTAssertEqual(commands.ask("update"), ["updating_db: 1", "OK"])
        XCTAssertEqual(commands.ask("clearerror"), ["OK"])
        XCTAssertTrue(idle.send("idle"))
        // `database` comes when the renewal changed what MPDroid would list (not here: nothing met).
        XCTAssertEqual(idle.response()?.filter { $0 != "changed: database" }, ["changed: output", "changed: update", "OK"])
    }
}
