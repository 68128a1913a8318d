import Foundation
import PreviewTestSupport
import XCTest

/// Every ACK previewd sends, against the one Debian's MPD 0.23 sends for the same case: both
/// servers run side by side (MPD over a music folder of two tone files and a cover, with a null
/// output), each case's setup and command go to both, and the error codes must be equal (the
/// messages are listed, not compared: several are previewd's clearer words). The cases follow
/// MPD's handlers (src/command/*.cxx) error by error; the table is printed for the record.
final class MPDAckAuditEndToEndTests: DaemonTestCase {
    /// One case: what to send first (answers not compared) and the command whose answer is.
    private struct Case {
        var setup: [String] = []
        var command: String
        init(_ command: String, after setup: [String] = []) {
            self.command = command
            self.setup = setup
        }
    }

    /// What a placeholder stands for on each server: a song, its folder, a song neither has.
    private let words: [(String, mpd: String, previewd: String)] = [
        ("{song}", "tones/a.m4a", "itunes:track:1001"),
        ("{song2}", "tones/b.m4a", "itunes:track:1002"),
        ("{dir}", "tones", "Searches/sine"),
        // A song's folder as Cantata makes it (Utils::getDir): `tones/` of `tones/a.m4a`; previewd's
        // songs have none, so the song's URI and a slash.
        ("{songfolder}", "tones/", "itunes:track:1001/"),
        ("{missing}", "nowhere/nope.m4a", "itunes:track:999999"),
    ]

    /// The cases, handler by handler (MPD 0.23.5's src/command/).
    private let cases: [Case] = [
        // AllCommands.cxx: the table's checks.
        Case("nosuchcommand"), Case("play 1 2"), Case("find"), Case("count"),
        // PlayerCommands.cxx
        Case("play", after: ["clear"]), Case("playid", after: ["clear"]), Case("next", after: ["clear"]),
        Case("previous", after: ["clear"]), Case("pause", after: ["clear"]), Case("pause 1", after: ["clear"]),
        Case("stop", after: ["clear"]), Case("seekcur 5", after: ["clear"]),
        Case("play 99", after: ["clear", "add {song}", "add {song2}"]), Case("play x"), Case("playid 99"), Case("seek 99 1"),
        Case("seek 0 x"), Case("seekid 99 1"), Case("seekcur x"), Case("setvol 101"), Case("setvol x"), Case("volume 200"),
        Case("repeat 2"), Case("random x"), Case("single 2"), Case("consume x"), Case("crossfade x"), Case("crossfade -1"),
        Case("mixrampdb x"), Case("mixrampdelay x"), Case("replay_gain_mode loud"), Case("clearerror"),
        // QueueCommands.cxx
        Case("add {missing}"), Case("addid {missing}"), Case("addid \"file:///etc/passwd\""), Case("addid {song} 99"), Case("addid {song} x"), Case("add {song} +1", after: ["stop"]),
        Case("delete 99"), Case("delete 5:9"), Case("delete x"), Case("deleteid 99"), Case("move 0 99"), Case("move 99 0"),
        Case("move 0: 1"), Case("moveid 99 0"), Case("moveid 1 +1", after: ["stop"]), Case("swap 0 99"), Case("swapid 1 99"),
        Case("prio 256 0"), Case("prio 1 99"), Case("prioid 1 99"), Case("prioid x 1"), Case("playlistinfo 99"),
        Case("playlistinfo 2"), Case("playlistid 99"), Case("plchanges x"), Case("plchangesposid x"), Case("shuffle 5:9"),
        Case("playlistfind"), Case("playlistfind artist"), Case("playlistsearch nosuchtag x"), Case("currentsong", after: ["stop"]),
        // PlaylistCommands.cxx
        Case("load missing"), Case("load saved 5:9", after: ["save saved"]), Case("listplaylist missing"),
        Case("listplaylistinfo missing"), Case("rm missing"), Case("rename missing other"), Case("save saved"),
        Case("rename saved taken", after: ["save taken"]), Case("rename saved \"a/b\""), Case("save \"a/b\""),
        Case("playlistdelete saved 99"), Case("playlistdelete missing 0"), Case("playlistdelete saved x"),
        Case("playlistmove saved 0 99"), Case("playlistmove missing 0 1"), Case("playlistadd saved {missing}"),
        Case("playlistclear cleared"), Case("listplaylists"),
        // DatabaseCommands.cxx, OtherCommands.cxx
        Case("lsinfo nowhere"), Case("lsinfo \"mpd-client://cantata/2.5.0\""), Case("listall nowhere"),
        Case("listallinfo nowhere"), Case("lsinfo {dir}"), Case("lsinfo {dir}/"), Case("listall {dir}/"), Case("lsinfo {songfolder}"),
        Case("add {songfolder}"), Case("listfiles nowhere"), Case("listfiles {dir}/"), Case("lsinfo \"/\""), Case("find artist"), Case("find nosuchtag x"),
        Case("find \"(artist == 'x'\""), Case("search any"), Case("searchadd"), Case("findadd artist x position x"),
        Case("list nosuchtag"), Case("list artist x"), Case("list album group album"), Case("list album group nosuchtag"),
        Case("count artist"), Case("count group nosuchtag"), Case("update /etc"), Case("update ../x"), Case("stats"),
        // FileCommands.cxx
        Case("albumart {missing} 0"), Case("albumart {songfolder} 0"), Case("readpicture {songfolder} 0"), Case("albumart {song} 99999999"), Case("albumart {song} x"), Case("readpicture {missing} 0"),
        Case("readpicture {song} x"),
        // OutputCommands.cxx, PartitionCommands.cxx
        Case("enableoutput 5"), Case("disableoutput x"), Case("toggleoutput 5"), Case("outputset 0 dop 1"), Case("outputset 5 dop 1"),
        Case("outputset 0"), Case("partition nope"),
        // ClientCommands.cxx, TagCommands: the connection's own.
        Case("binarylimit 10"), Case("binarylimit x"), Case("tagtypes enable nosuchtag"), Case("tagtypes nonsense"),
        Case("idle nosuchsubsystem"), Case("password wrong"), Case("command_list_end"), Case("ping"),
        // MessageCommands.cxx
        Case("subscribe \"bad name\""), Case("subscribe c1"), Case("subscribe c1", after: ["subscribe c1"]),
        Case("unsubscribe nope"), Case("sendmessage nope hi"), Case("sendmessage \"bad name\" hi"), Case("readmessages"),
        Case("channels"),
    ]

    func testEveryACKIsMPDs() throws {
        guard ProcessRunner.which("mpd") != nil else { throw XCTSkip("Debian's MPD is not installed (Debian: mpd)") }
        let (socket, _) = try startServingMPD()
        let reference = try startMPD()
        defer { reference.stop(SIGTERM) }
        let mpd = try MPDRawClient(port: reference.port), previewd = try MPDRawClient(path: socket)
        // The same state on both: a search's songs met (previewd's database renewed: MPD's made),
        // two songs queued, a list saved.
        XCTAssertEqual(previewd.ask("search any \"sine\"")?.last, "OK")
        XCTAssertEqual(previewd.ask("update")?.last, "OK")
        try waitFor("previewd's renewal ended") { !(previewd.ask("status") ?? []).contains { $0.hasPrefix("updating_db") } }
        _ = mpd.ask("update")
        XCTAssertTrue(eventually(timeout: 20) { (mpd.ask("stats") ?? []).contains("songs: 2") }, "MPD's update")
        var rows: [String] = []
        var differ: [String] = []
        for test in cases {
            var answers: [String] = []
            for (client, isMPD) in [(mpd, true), (previewd, false)] {
                func fill(_ line: String) -> String { words.reduce(line) { $0.replacingOccurrences(of: $1.0, with: isMPD ? $1.mpd : $1.previewd) } }
                for line in test.setup { _ = client.ask(fill(line)) }
                answers.append((client.ask(fill(test.command)) ?? ["(closed)"]).last ?? "")
            }
            let codes = answers.map(Self.code)
            rows.append("| `\(test.command)` | \(answers[0]) | \(answers[1]) |")
            if codes[0] != codes[1] { differ.append("\(test.command): MPD \(answers[0]) · previewd \(answers[1])") }
        }
        print((["| case | MPD 0.23.12 | previewd |", "| --- | --- | --- |"] + rows).joined(separator: "\n"))
        XCTAssertEqual(differ, [], "codes that differ from MPD's")
    }

    /// `ACK [50@0] {x} …` → "50"; `OK` → "OK".
    private static func code(_ line: String) -> String {
        guard line.hasPrefix("ACK ["), let at = line.firstIndex(of: "@") else { return line }
        return String(line[line.index(line.startIndex, offsetBy: 5)..<at])
    }

    /// Debian's MPD on a loopback port, over a music folder of two tone files and a cover, its
    /// database made; a null output.
    private func startMPD() throws -> (port: UInt16, stop: (Int32) -> Void) {
        let folder = NSTemporaryDirectory() + "previewd-refmpd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fm = FileManager.default
        for sub in ["music/tones", "playlists"] { try fm.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true) }
        let previews = Fixtures.directory.appendingPathComponent("previews")
        try fm.copyItem(atPath: previews.appendingPathComponent("tone-440.m4a").path, toPath: folder + "/music/tones/a.m4a")
        try fm.copyItem(atPath: previews.appendingPathComponent("tone-660.m4a").path, toPath: folder + "/music/tones/b.m4a")
        try fm.copyItem(atPath: Fixtures.directory.appendingPathComponent("artwork/quadrants.jpg").path, toPath: folder + "/music/tones/cover.jpg")
        let port = try LoopbackPort.free()
        try """
            music_directory "\(folder)/music"
            playlist_directory "\(folder)/playlists"
            db_file "\(folder)/database"
            bind_to_address "127.0.0.1"
            port "\(port)"
            audio_output {
                type "null"
                name "null"
            }
            """.write(toFile: folder + "/mpd.conf", atomically: true, encoding: .utf8)
        let process = try BackgroundCommand("/usr/bin/mpd", ["--no-daemon", "--stderr", folder + "/mpd.conf"])
        addTeardownBlock { try? fm.removeItem(atPath: folder) }
        try waitFor("MPD takes connections") { (try? MPDRawClient(port: port)) != nil }
        return (port, { process.stop(signal: $0) })
    }
}
