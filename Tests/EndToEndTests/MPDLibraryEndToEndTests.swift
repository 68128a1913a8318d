import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The MPD clients' own screens against previewd: their library (a database of what previewd has
/// met), their queue's lengths, their covers. Each sequence is the client's own, read from its
/// source (file and line named above it) and replayed on a bare socket; the catalog is the
/// stand-in's and Apple's real answers (Tests/Fixtures/apple).
final class MPDLibraryEndToEndTests: DaemonTestCase {
    private var socket = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessRunner.which("mpc") != nil else { throw XCTSkip("mpc is not installed (Debian: mpc)") }
        try standIn.addRecordings(in: Fixtures.directory.appendingPathComponent("apple"))
        (socket, _) = try startServingMPD()
    }

    private func client() throws -> MPDRawClient { try MPDRawClient(path: socket) }

    /// `text` as a client quotes an argument.
    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `key`'s value in an answer.
    private func value(_ key: String, _ lines: [String]?) -> String? {
        lines?.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    private func values(_ key: String, _ lines: [String]?) -> [String] {
        (lines ?? []).filter { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    /// Renews the database (`update`) and waits for the renewal's end (`status` no longer says
    /// `updating_db`, as Cantata waits for it: mpdconnection.cpp:1514).
    private func update(_ mpd: MPDRawClient) throws {
        XCTAssertEqual(values("updating_db", mpd.ask("update")).count, 1)
        try waitFor("the renewal ended") { value("updating_db", mpd.ask("status")) == nil }
    }

    /// What a listener meets: a search (MPD's own), the Canadian chart, an album looked up,
    /// a track heard for more than five seconds, and one marked.
    private func meetThings() throws {
        let mpd = try client()
        XCTAssertEqual(mpd.ask("search any \"sine\"")?.first, "file: itunes:track:1001")
        XCTAssertEqual(try daemon.ctl("top", "--country", "ca", "--limit", "3", "--no-queue").status, 0)
        XCTAssertEqual(try daemon.ctl("lookup", "1038991417", "--no-queue").status, 0, "Slayer's album, Apple's answer")
        XCTAssertEqual(mpd.ask("command_list_begin\nadd itunes:track:1002\nadd itunes:track:1003\ncommand_list_end"), ["OK"])
        XCTAssertEqual(mpd.ask("play 0"), ["OK"])
        try waitForStatus(timeout: 20, "heard for five seconds") { $0.positionMs >= 5_500 }
        XCTAssertEqual(try daemon.ctl("mark", "1").status, 0)
        XCTAssertEqual(mpd.ask("stop"), ["OK"], "the history is written when a listening ends")
        try waitFor("the history has it") { (try? daemon.ctl("history").stdout.contains("E Six Sixty")) == true }
    }

    /// Cantata 2.5.0's library, from its library load (mpd-interface/mpdconnection.cpp): `stats`
    /// (all zeros would be Mopidy, :2752), its probe `lsinfo "mpd-client://cantata/2.5.0"`
    /// (mpdconnection.h:187, :2765), then `loadLibrary` (:1843) → `recursivelyListDir` (:2299):
    /// `list genre`, else `list artist` (an empty answer means no library, :2310), `lsinfo`, and
    /// `lsinfo DIR` for every `directory:`; each song found is a row of its library (no song may
    /// be found twice: db/librarydb.cpp inserts each); `getCover` (:1547) asks `albumart` of the
    /// song's folder (`Utils::getDir`: `itunes:track:ID/`) from offset 0 until it has `size`.
    func testCantataLoadsALibraryOfWhatWasMetAndItsCovers() throws {
        let cantata = try client()
        XCTAssertEqual(value("uptime", cantata.ask("stats")).map { $0 != "0" }, true, "not taken for Mopidy")
        XCTAssertEqual(cantata.ask("lsinfo \"mpd-client://cantata/2.5.0\""), ["ACK [2@0] {lsinfo} Unsupported URI scheme"], "MPD's answer: an MPD")
        XCTAssertEqual(cantata.ask("list genre"), ["OK"], "nothing met yet")
        XCTAssertEqual(value("songs", cantata.ask("stats")), "0")

        try meetThings()
        try update(cantata)
        let stats = cantata.ask("stats")
        let songs = try XCTUnwrap(Int(value("songs", stats) ?? ""))
        XCTAssertGreaterThan(songs, 10)
        XCTAssertNotEqual(value("db_update", stats), "0")
        XCTAssertGreaterThan(values("Genre", cantata.ask("list genre")).count, 1, "Cantata goes on to list its folders")

        var found: [String] = []
        var folders: [String] = []
        func walk(_ folder: String?) {
            let lines = cantata.ask(folder.map { "lsinfo \(quoted($0))" } ?? "lsinfo") ?? []
            XCTAssertEqual(lines.last, "OK", "\(folder ?? "/"): \(lines)")
            found += values("file", lines)
            for sub in values("directory", lines) {
                folders.append(sub)
                walk(sub)
            }
        }
        walk(nil)
        XCTAssertEqual(found.count, Set(found).count, "each song once: \(found)")
        XCTAssertEqual(found.count, songs, "Cantata's library holds what stats counts")
        XCTAssertEqual(folders.filter { !$0.contains("/") }, ["Marked", "Heard", "Top songs (CA)", "Searches", "Other"])
        XCTAssertEqual(values("file", cantata.ask("lsinfo \"Marked\"")), ["itunes:track:1003"])
        XCTAssertEqual(values("file", cantata.ask("lsinfo \"Heard\"")), ["itunes:track:1002"])
        XCTAssertTrue(folders.contains("Searches/sine"), "\(folders)")
        XCTAssertTrue(values("file", cantata.ask("lsinfo \"Other\"")).contains("itunes:track:1038991437"), "the album looked up")

        // Its covers, from the song's folder form, as many chunks as the size asks.
        let uri = "itunes:track:1001/"
        var cover: [UInt8] = []
        var size = -1
        while size < 0 || cover.count < size {
            let chunk = try XCTUnwrap(cantata.askBinary("albumart \(quoted(uri)) \(cover.count)"))
            XCTAssertEqual(chunk.lines.last, "OK", "\(chunk.lines)")
            size = try XCTUnwrap(Int(value("size", chunk.lines) ?? ""))
            guard !chunk.data.isEmpty else { break }
            cover += chunk.data
        }
        XCTAssertEqual(cover.count, 5004, "the stand-in's cover, whole")
        XCTAssertEqual(Array(cover.prefix(2)), [0xFF, 0xD8], "a JPEG")
        XCTAssertEqual(cantata.ask("albumart \"Heard/\" 0"), ["ACK [50@0] {albumart} No file exists"], "a folder of the database has no cover file")
        // Its stored playlist of radio streams (mpdconnection.cpp:2143), which is not there.
        XCTAssertEqual(cantata.ask("listplaylistinfo \"[Radio Streams]\""), ["ACK [50@0] {listplaylistinfo} No such playlist"])
    }

    /// GMPC 11.8 through libmpd: on every connect and saved-list change its favourites ask
    /// `listplaylistinfo "Favorites"` and pass over only `ACK [50]` (libmpd-database.c:526);
    /// loading a list that is not there likewise (libmpd-playlist.c:812). Its tag browsers
    /// (browsers/playlist3-tag2-browser.c) send `list artist`, then `list album artist "X"`
    /// (libmpdclient.c:1915, :1951), then `find artist "X" album "Y"` (:1866); its file browser
    /// `lsinfo "/"` (libmpd-database.c:1065) and `lsinfo "PATH"` (:449).
    func testGMPCsSavedListChecksAndBrowsers() throws {
        let gmpc = try client()
        XCTAssertEqual(gmpc.ask("listplaylistinfo \"Favorites\""), ["ACK [50@0] {listplaylistinfo} No such playlist"])
        XCTAssertEqual(gmpc.ask("load \"Favorites\""), ["ACK [50@0] {load} No such playlist"])
        XCTAssertEqual(gmpc.ask("search any \"sine\"")?.first, "file: itunes:track:1001")
        try update(gmpc)
        XCTAssertEqual(values("Artist", gmpc.ask("list artist")), ["Square Roots", "The Sine Waves"], "sorted, as MPD's")
        let albums = values("Album", gmpc.ask("list album artist \"The Sine Waves\""))
        XCTAssertEqual(albums, ["Pure Tones", "Short Tones"])
        let songs = try XCTUnwrap(gmpc.ask("find artist \"The Sine Waves\" album \"Pure Tones\""))
        XCTAssertEqual(values("file", songs), (1001...1005).map { "itunes:track:\($0)" }, "the answer's order")
        XCTAssertEqual(values("Time", songs), Array(repeating: "8", count: 5), "8-second songs play their 8 seconds")
        let root = gmpc.ask("lsinfo \"/\"")
        XCTAssertEqual(values("directory", root), ["Searches"])
        XCTAssertEqual(values("directory", gmpc.ask("lsinfo \"Searches\"")), ["Searches/sine"])
        XCTAssertEqual(values("file", gmpc.ask("lsinfo \"Searches/sine\"")).count, 8)
        XCTAssertEqual(gmpc.ask("lsinfo \"Nowhere\""), ["ACK [50@0] {lsinfo} No such directory"])
    }

    /// Sonata 1.7 (sonata/library.py): its artist view `list artist`, then `count artist "X"` for
    /// each row (library_return_count, :795: counted in the database, no catalog call each); its
    /// album view `listallinfo "/"` (:587); its filesystem view `lsinfo PATH` (:518); its library
    /// search asks the first two letters (`search artist "si"`, :1262) and filters the rest itself.
    func testSonatasViewsAndLibrarySearch() throws {
        let sonata = try client()
        XCTAssertEqual(sonata.ask("search any \"sine\"")?.first, "file: itunes:track:1001")
        try update(sonata)
        let searchesBefore = standIn.requestLog.filter { $0.contains("/search?") }.count
        for artist in values("Artist", sonata.ask("list artist")) {
            let counted = sonata.ask("count artist \(quoted(artist))")
            XCTAssertEqual(counted?.count, 3, "songs and playtime: \(counted ?? [])")
        }
        XCTAssertEqual(sonata.ask("count artist \"The Sine Waves\""), ["songs: 7", "playtime: 44", "OK"], "five of 8 s, two of 2 s")
        XCTAssertEqual(standIn.requestLog.filter { $0.contains("/search?") }.count, searchesBefore, "counting calls no catalog")
        let all = sonata.ask("listallinfo \"/\"")
        XCTAssertEqual(values("file", all).count, 8)
        XCTAssertEqual(values("directory", all), ["Searches", "Searches/sine"])
        XCTAssertEqual(values("Album", sonata.ask("lsinfo \"Searches/sine\"")).count, 8)
        let search = try XCTUnwrap(sonata.ask("search \"artist\" \"si\""))
        XCTAssertEqual(Array(values("file", search).prefix(7)), values("file", sonata.ask("listall \"Searches/sine\"")).filter { $0 != "itunes:track:2003" },
                       "what previewd met with `si` in its artist first (Square Roots' Upside Sine has none), then the catalog's")
    }

    /// `list`, `find`, `search` and `count` over a memory filled by Apple's real answers (ABBA's
    /// songs, Slayer's album): MPD's grouping, `find` exact, `window` over the whole answer.
    func testListFindAndCountOverApplesRealAnswers() throws {
        let mpd = try client()
        XCTAssertEqual(values("file", mpd.ask("search any \"abba\"")), ["itunes:track:1422648513", "itunes:track:1422648821", "itunes:track:1422648844"])
        XCTAssertEqual(try daemon.ctl("lookup", "1038991417", "--no-queue").status, 0)
        try update(mpd)
        XCTAssertEqual(values("Artist", mpd.ask("list artist")), ["ABBA", "Slayer"])
        XCTAssertEqual(mpd.ask("list album group albumartist"),
                       ["AlbumArtist: ABBA", "Album: Gold: Greatest Hits", "AlbumArtist: Slayer", "Album: Reign In Blood", "OK"])
        XCTAssertEqual(mpd.ask("list date group genre")?.filter { $0.hasPrefix("Genre") }, ["Genre: Metal", "Genre: Pop"])
        XCTAssertEqual(mpd.ask("count artist \"ABBA\""), ["songs: 3", "playtime: 90", "OK"], "three 30-second previews")
        XCTAssertEqual(mpd.ask("count group artist"), ["Artist: ABBA", "songs: 3", "playtime: 90", "Artist: Slayer", "songs: 3", "playtime: 90", "OK"])
        XCTAssertEqual(mpd.ask("find artist \"abba\""), ["OK"], "find is exact: ABBA is not abba")
        let exact = try XCTUnwrap(mpd.ask("find artist \"ABBA\""))
        XCTAssertEqual(Array(values("file", exact).prefix(3)), ["itunes:track:1422648513", "itunes:track:1422648821", "itunes:track:1422648844"])
        XCTAssertEqual(values("Comment", exact).first, "full song 3:51", "the song's own length, for a client that shows it")
        XCTAssertEqual(values("file", mpd.ask("search any \"blood\" window 1:2")), ["itunes:track:1038991438"], "the window over the whole")
        XCTAssertEqual(values("file", mpd.ask("find \"(base 'Other')\"")).count, 3, "Slayer's songs are filed in Other")
    }

    /// The queue's lengths are the previews': 30 s for ABBA's songs before they are decoded (the
    /// songs last 3:51, 3:32, 4:54), and once one is decoded, `plchanges` gives its exact length,
    /// the one `status` and `currentsong` give.
    func testTheQueuesLengthsAreThePreviewsAndBecomeExact() throws {
        let mpd = try client()
        XCTAssertEqual(mpd.ask("searchadd any \"abba\""), ["OK"])
        let before = try XCTUnwrap(mpd.ask("playlistinfo"))
        XCTAssertEqual(values("Time", before), ["30", "30", "30"])
        XCTAssertEqual(values("Comment", before), ["full song 3:51", "full song 3:32", "full song 4:54"])
        let version = try XCTUnwrap(value("playlist", mpd.ask("status")))
        let watcher = try client()
        watcher.send("idle playlist")
        XCTAssertEqual(mpd.ask("play 0"), ["OK"])
        let decoded = try waitForStatus(timeout: 20, "the first preview decoded") { $0.durationMs != nil }
        let ms = try XCTUnwrap(decoded.durationMs)
        let exact = String(format: "%d.%03d", ms / 1000, ms % 1000)
        XCTAssertEqual(watcher.response(), ["changed: playlist", "OK"], "the exact length is a queue change")
        let changes = try XCTUnwrap(mpd.ask("plchanges \(version)"))
        XCTAssertEqual(values("Id", changes).count, 1, "that item alone: \(changes)")
        XCTAssertEqual(value("duration", changes), exact)
        XCTAssertEqual(values("duration", mpd.ask("playlistinfo")), [exact, "30.000", "30.000"])
        XCTAssertEqual(value("duration", mpd.ask("currentsong")), exact)
        XCTAssertEqual(value("duration", mpd.ask("status")), exact)
    }
}
