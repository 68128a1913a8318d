import PreviewCore
@testable import PreviewEngine
import XCTest

/// The pure parts of MPD's protocol, from written tables: the tokenizer (quoting, escaping, what
/// MPD refuses), the command table and its checks, filters (0.21 expressions and TYPE VALUE pairs)
/// and how they are asked of the catalog, ranges, idle subsystems, songs, the listen plan.
final class MPDProtocolTests: XCTestCase {
    private func parse(_ line: String) throws -> MPDRequest { try MPDRequest(parsing: Array(line.utf8)) }

    func testTheTokenizerSplitsQuotesAndEscapesAsMPD() throws {
        let table: [(String, String, [String])] = [
            ("status", "status", []),
            ("  play   3 ", "play", ["3"]),
            ("add \"itunes:track:1\"", "add", ["itunes:track:1"]),
            (#"search any "say \"hi\" \\ back""#, "search", ["any", #"say "hi" \ back"#]),
            ("find \"(artist == 'The Sine Waves')\" sort -Title", "find", ["(artist == 'The Sine Waves')", "sort", "-Title"]),
            ("seekcur +1.5\r", "seekcur", ["+1.5"]),
            ("command_list_ok_begin", "command_list_ok_begin", []),
            ("search any \"\"", "search", ["any", ""]),
        ]
        for (line, name, arguments) in table {
            XCTAssertEqual(try parse(line), MPDRequest(name: name, arguments: arguments), line)
        }
        let refused: [(String, MPDError.Code, String)] = [
            ("", .unknown, "No command given"),
            ("   ", .unknown, "No command given"),
            ("3play", .unknown, "Command name expected"),
            ("pl@y", .unknown, "Invalid command name"),
            ("add \"unclosed", .arg, "Missing closing '\"'"),
            ("add \"a\"b", .arg, "Space expected after closing '\"'"),
            ("add a\"b", .arg, "Invalid unquoted character"),
            ("\u{1}\u{2}\u{ff}", .unknown, "Command name expected"),
        ]
        for (line, code, message) in refused {
            XCTAssertThrowsError(try parse(line), line) { error in
                XCTAssertEqual(error as? MPDError, MPDError(code, message), line)
            }
        }
        XCTAssertEqual(MPDRequest.quoted(#"a "b" \c"#), #""a \"b\" \\c""#)
        XCTAssertEqual(try parse("x " + MPDRequest.quoted(#"a "b" \c"#)).arguments, [#"a "b" \c"#], "quoted reads back")
    }

    func testAnACKLineCarriesMPDsNumberIndexAndCommand() {
        XCTAssertEqual(String(decoding: MPDError(.unknown, "unknown command \"x\"").line(index: 0, command: ""), as: UTF8.self),
                       "ACK [5@0] {} unknown command \"x\"\n")
        XCTAssertEqual(String(decoding: MPDError(.arg, "two\nlines").line(index: 3, command: "add"), as: UTF8.self),
                       "ACK [2@3] {add} two lines\n", "a message stays on one line")
        XCTAssertEqual(MPDError(ControlError(.rejected, "no such index")).code, .arg)
        XCTAssertEqual(MPDError(ControlError(.noResults, "nothing")).code, .noExist)
        XCTAssertEqual(MPDError(ControlError(.offline, "offline")).code, .system)
    }

    func testTheTableIsSortedAndChecksNamePermissionAndCount() throws {
        let names = MPDCommandTable.all.map(\.name)
        XCTAssertEqual(names, names.sorted(), "one sorted table, as MPD's AllCommands.cxx")
        XCTAssertEqual(Set(names).count, names.count)
        for wanted in ["status", "currentsong", "idle", "noidle", "play", "addid", "plchanges", "search", "findadd", "list",
                       "albumart", "readpicture", "tagtypes", "commands", "notcommands", "password", "getvol", "save", "load",
                       "listplaylists", "rm", "binarylimit", "update", "rescan", "prio", "prioid", "swap", "swapid", "playlistmove",
                       "clearerror", "replay_gain_mode", "enableoutput", "disableoutput", "toggleoutput", "crossfade", "mixrampdb", "mixrampdelay"] {
            XCTAssertTrue(names.contains(wanted), wanted)
        }
        for absent in ["rangeid", "newpartition", "sticker"] {
            XCTAssertFalse(names.contains(absent), "\(absent) is not built, so not advertised")
        }
        let all: (MPDPermission) -> Bool = { _ in true }
        let guest: (MPDPermission) -> Bool = { $0 == .none }
        XCTAssertEqual(try MPDCommandTable.command("addid", arguments: 2, may: all).name, "addid")
        let cases: [(String, Int, (MPDPermission) -> Bool, MPDError)] = [
            ("nosuchcommand", 0, all, MPDError(.unknown, "unknown command \"nosuchcommand\"")),
            ("addid", 3, all, MPDError(.arg, "too many arguments for \"addid\"")),
            ("addid", 0, all, MPDError(.arg, "too few arguments for \"addid\"")),
            ("outputset", 1, all, MPDError(.arg, "wrong number of arguments for \"outputset\"")),
            ("enableoutput", 2, all, MPDError(.arg, "wrong number of arguments for \"enableoutput\"")),
            ("play", 0, guest, MPDError(.permission, "you don't have permission for \"play\"")),
        ]
        for (name, count, may, expected) in cases {
            XCTAssertThrowsError(try MPDCommandTable.command(name, arguments: count, may: may)) { XCTAssertEqual($0 as? MPDError, expected) }
        }
        for free in ["ping", "password", "close", "commands", "notcommands"] {
            XCTAssertEqual(MPDCommandTable.all.first { $0.name == free }?.permission, MPDPermission.none, "\(free) before the password")
        }
        XCTAssertEqual(MPDCommandTable.all.filter { $0.permission == .none }.map(\.name).filter { !$0.hasPrefix("command_list") },
                       ["binarylimit", "close", "commands", "notcommands", "password", "ping"])
    }

    private let sine = {
        var t = Track(trackId: 1001, trackName: "A Four Forty", artistName: "The Sine Waves", collectionName: "Pure Tones")
        t.primaryGenreName = "Electronic"
        t.trackNumber = 1
        t.releaseDate = "2005-01-01T08:00:00Z"
        t.trackTimeMillis = 8000
        return t
    }()

    func testFiltersParseNestAndMatch() throws {
        let nested = try MPDFilter(expression: #"((artist == 'The Sine Waves') AND ((album contains "Pure") AND (!(title == 'x'))))"#)
        XCTAssertEqual(nested, .all([.match(.tag(.artist), .equals, "The Sine Waves"),
                                     .all([.match(.tag(.album), .contains, "Pure"), .not(.match(.tag(.title), .equals, "x"))])]))
        XCTAssertTrue(nested.matches(sine, foldCase: false))
        XCTAssertFalse(try MPDFilter(expression: "(artist == 'the sine waves')").matches(sine, foldCase: false), "find is exact")
        XCTAssertTrue(try MPDFilter(expression: "(artist == 'the sine waves')").matches(sine, foldCase: true), "search folds case")
        XCTAssertTrue(try MPDFilter(expression: "(any contains 'Forty')").matches(sine, foldCase: false))
        XCTAssertTrue(try MPDFilter(expression: "(file == 'itunes:track:1001')").matches(sine, foldCase: false))
        XCTAssertTrue(try MPDFilter(expression: #"(Title starts_with "A F")"#).matches(sine, foldCase: false))
        XCTAssertTrue(try MPDFilter(expression: "(genre != 'Rock')").matches(sine, foldCase: false))
        XCTAssertTrue(try MPDFilter(expression: #"(artist == 'it\'s')"#) == .match(.tag(.artist), .equals, "it's"))
        XCTAssertFalse(try MPDFilter(expression: "(composer == 'Bach')").matches(sine, foldCase: false), "a tag previewd cannot fill matches nothing")

        let pairs = try MPDFilter(pairs: ["artist", "sine", "album", "pure"], exact: false)
        XCTAssertEqual(pairs, .all([.match(.tag(.artist), .contains, "sine"), .match(.tag(.album), .contains, "pure")]))
        XCTAssertTrue(pairs.matches(sine, foldCase: true))
        XCTAssertEqual(try MPDFilter(pairs: ["Any", "x"], exact: true), .match(.any, .equals, "x"))

        let refused: [(String, String)] = [
            ("(artist == 'x'", "')' expected"),
            ("(artist =~ 'x')", "Regular expressions are not supported"),
            ("(artist == x)", "Quoted value expected"),
            ("(nosuchtag == 'x')", "Unknown filter type: nosuchtag"),
            ("((artist == 'x') OR (album == 'y'))", "'AND' expected"),
            ("(artist == 'x') trailing", "Unparsed garbage after expression"),
            ("(artist == 'x", "Closing quote not found"),
        ]
        for (text, message) in refused {
            XCTAssertThrowsError(try MPDFilter(expression: text), text) { XCTAssertEqual(($0 as? MPDError)?.message, message, text) }
        }
        XCTAssertThrowsError(try MPDFilter(pairs: ["artist"], exact: true))
        XCTAssertThrowsError(try MPDFilter(pairs: ["bogus", "x"], exact: true))
    }

    func testAFilterIsAskedOfTheCatalogAsATermAndAnAttribute() throws {
        func plan(_ filter: MPDFilter) throws -> MPDFilter.CatalogPlan { try filter.catalogPlan() }
        guard case .search(let artist) = try plan(.match(.tag(.artist), .equals, "The Sine Waves")) else { return XCTFail() }
        XCTAssertEqual(artist.term, "The Sine Waves")
        XCTAssertEqual(artist.attribute, "artistTerm")
        XCTAssertEqual(artist.entity, "song")
        guard case .search(let title) = try plan(.match(.tag(.title), .contains, "Forty")) else { return XCTFail() }
        XCTAssertEqual(title.attribute, "songTerm")
        guard case .search(let album) = try plan(.match(.tag(.album), .contains, "Pure")) else { return XCTFail() }
        XCTAssertEqual(album.attribute, "albumTerm")
        guard case .search(let any) = try plan(.match(.any, .contains, "sine")) else { return XCTFail() }
        XCTAssertEqual(any.term, "sine")
        XCTAssertNil(any.attribute)
        guard case .search(let mixed) = try plan(.all([.match(.tag(.artist), .equals, "A"), .match(.tag(.album), .equals, "B"),
                                                       .not(.match(.tag(.title), .equals, "C"))])) else { return XCTFail() }
        XCTAssertEqual(mixed.term, "A B", "positive conditions only")
        XCTAssertNil(mixed.attribute, "two tags: no one attribute")
        XCTAssertEqual(try plan(.match(.file, .equals, "itunes:track:1001")), .lookup([1001]))
        XCTAssertEqual(try plan(.not(.match(.tag(.artist), .equals, "x"))), .nothing, "nothing to search for: nothing found")
        XCTAssertEqual(try plan(.match(.file, .contains, "tone")), .nothing, "a file name: no files in the catalog")
    }

    /// MPD's other filter names (src/song/Filter.cxx; `prio` and `added-since` from 0.24) parse
    /// and answer: a folder matches only at the root, file times and formats match nothing,
    /// `prio >= N` a queue item's priority.
    func testTheOtherFilterNames() throws {
        XCTAssertEqual(try MPDFilter(expression: "(base 'Music')"), .match(.base, .equals, "Music"))
        XCTAssertEqual(try MPDFilter(expression: "(modified-since '2020-01-01T00:00:00Z')"), .match(.modifiedSince, .equals, "2020-01-01T00:00:00Z"))
        XCTAssertEqual(try MPDFilter(expression: "(added-since '1700000000')"), .match(.addedSince, .equals, "1700000000"))
        XCTAssertEqual(try MPDFilter(expression: "(AudioFormat =~ '44100:*:*')"), .match(.audioFormat, .mask, "44100:*:*"))
        XCTAssertEqual(try MPDFilter(expression: "(prio >= 42)"), .match(.prio, .atLeast, "42"))
        XCTAssertEqual(try MPDFilter(pairs: ["base", "x"], exact: true), .match(.base, .equals, "x"))
        XCTAssertFalse(try MPDFilter(expression: "(base 'Music')").matches(sine, foldCase: false))
        XCTAssertTrue(try MPDFilter(expression: "(base '')").matches(sine, foldCase: false), "the root holds everything")
        XCTAssertFalse(try MPDFilter(expression: "(modified-since '0')").matches(sine, foldCase: false))
        XCTAssertTrue(try MPDFilter(expression: "(prio >= 5)").matches(sine, priority: 5, foldCase: false))
        XCTAssertFalse(try MPDFilter(expression: "(prio >= 5)").matches(sine, priority: 4, foldCase: false))
        XCTAssertThrowsError(try MPDFilter(expression: "(AudioFormat != 'x')")) { XCTAssertEqual(($0 as? MPDError)?.message, "'==' or '=~' expected") }
        XCTAssertThrowsError(try MPDFilter(expression: "(prio == 3)")) { XCTAssertEqual(($0 as? MPDError)?.message, "'>=' expected") }
        XCTAssertEqual(try MPDFilter(expression: "((artist == 'x') AND (base 'y'))").catalogPlan(limit: 10),
                       .search({ var q = CatalogQuery(term: "x", limit: 10); q.media = "music"; q.entity = "song"; q.attribute = "artistTerm"; return q }()))
    }

    /// `move`'s destination: absolute, or `+N`/`-N` from the current song as the queue is once the
    /// moved range is out of it (MPD 0.23's ParseMoveDestination).
    func testMoveDestinationsRelativeToTheCurrentSong() throws {
        var status = StatusReport(state: .playing, index: 2, positionMs: 0, durationMs: nil, queueLength: 6, track: nil, error: nil, output: "")
        XCTAssertEqual(try MPDCommands.destination("+0", moving: 4..<5, status), 3)
        XCTAssertEqual(try MPDCommands.destination("+1", moving: 4..<5, status), 4)
        XCTAssertEqual(try MPDCommands.destination("-0", moving: 4..<5, status), 2)
        XCTAssertEqual(try MPDCommands.destination("+0", moving: 0..<1, status), 2, "the current song moves up when the range leaves from before it")
        XCTAssertEqual(try MPDCommands.destination("3", moving: 0..<1, status), 3)
        XCTAssertThrowsError(try MPDCommands.destination("+0", moving: 2..<3, status)) {
            XCTAssertEqual(($0 as? MPDError)?.message, "Cannot move current song relative to itself")
        }
        XCTAssertThrowsError(try MPDCommands.destination("6", moving: 0..<1, status))
        XCTAssertThrowsError(try MPDCommands.destination("-3", moving: 4..<5, status))
        status.index = nil
        XCTAssertThrowsError(try MPDCommands.destination("+0", moving: 4..<5, status)) { XCTAssertEqual(($0 as? MPDError)?.code, .playerSync) }
    }

    func testTimestampsAsMPDWritesThem() {
        XCTAssertEqual(MPDResponse.timestamp(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(MPDResponse.timestamp(951_782_400), "2000-02-29T00:00:00Z")
        XCTAssertEqual(MPDResponse.timestamp(1_795_791_845), "2026-11-27T15:04:05Z")
    }

    func testSearchArgumentsSortWindowPositionAndGroup() throws {
        let search = try MPDSearch(["(artist == 'x')", "sort", "-Title", "window", "1:3", "position", "+0"], exact: true)
        XCTAssertEqual(search.filter, .match(.tag(.artist), .equals, "x"))
        XCTAssertEqual(search.sort?.tag, .title)
        XCTAssertEqual(search.sort?.descending, true)
        XCTAssertEqual(search.window, 1..<3)
        XCTAssertEqual(search.position, "+0")
        let list = try MPDSearch(["artist", "x", "group", "date", "group", "album"], exact: true)
        XCTAssertEqual(list.groups, [.date, .album])
        XCTAssertNil(try MPDSearch([], exact: true, filterRequired: false).filter)
        let tracks = ["b", "c", "a"].map { Track(trackName: $0) }
        var arranged = try MPDSearch(["title", "x", "sort", "Title", "window", "0:2"], exact: true)
        XCTAssertEqual(arranged.arrange(tracks).map(\.trackName), ["a", "b"])
        arranged.sort = (.title, true)
        arranged.window = nil
        XCTAssertEqual(arranged.arrange(tracks).map(\.trackName), ["c", "b", "a"])
    }

    func testRanges() throws {
        XCTAssertEqual(try MPDRange("3").range(count: 5), 3..<4)
        XCTAssertEqual(try MPDRange("1:3").range(count: 5), 1..<3)
        XCTAssertEqual(try MPDRange("2:").range(count: 5), 2..<5)
        XCTAssertEqual(try MPDRange("2:99").range(count: 5), 2..<5)
        XCTAssertThrowsError(try MPDRange("5").range(count: 5), "past the end")
        XCTAssertEqual(try MPDRange("5").range(count: 5, clip: true), 5..<5, "playlistinfo at the queue's length")
        XCTAssertThrowsError(try MPDRange("6").range(count: 5, clip: true))
        XCTAssertThrowsError(try MPDRange("x"))
        XCTAssertThrowsError(try MPDRange("3:1"))
        XCTAssertThrowsError(try MPDRange("-1"))
        XCTAssertThrowsError(try MPDRange("9223372036854775807"), "past 32 bits: refused before any arithmetic (it trapped)")
        XCTAssertThrowsError(try MPDRange("0:4294967296"))
        XCTAssertEqual(try MPDRange("4294967295:").start, 4_294_967_295, "the largest start is read")
    }

    func testIdleSubsystemsFromEvents() throws {
        XCTAssertEqual(MPDSubsystems(.state(.playing, index: 0)), .player)
        XCTAssertEqual(MPDSubsystems(.queue(length: 3, version: 4)), .playlist)
        XCTAssertEqual(MPDSubsystems(.volume(50, muted: false)), .mixer)
        XCTAssertEqual(MPDSubsystems(.crossfade(2)), .options)
        XCTAssertEqual(MPDSubsystems(.position(ms: 1, durationMs: 2)), [], "ticks change nothing a client waits for")
        XCTAssertEqual(try MPDSubsystems(names: []), .all)
        XCTAssertEqual(try MPDSubsystems(names: ["player", "Mixer"]), [.player, .mixer])
        XCTAssertThrowsError(try MPDSubsystems(names: ["nonsense"]))
        XCTAssertEqual(String(decoding: MPDSubsystems([.mixer, .player, .playlist]).changedLines.bytes, as: UTF8.self),
                       "changed: playlist\nchanged: player\nchanged: mixer\n", "MPD's order")
    }

    func testASongAndItsTags() throws {
        var response = MPDResponse()
        MPDSong.add(sine, to: &response, position: 2, id: 7)
        XCTAssertEqual(String(decoding: response.bytes, as: UTF8.self), """
            file: itunes:track:1001
            Artist: The Sine Waves
            Album: Pure Tones
            AlbumArtist: The Sine Waves
            Title: A Four Forty
            Track: 1
            Genre: Electronic
            Date: 2005-01-01
            Comment: full song 0:08
            Time: 8
            duration: 8.000
            Pos: 2
            Id: 7

            """)
        var bare = MPDResponse()
        var evil = sine
        evil.trackName = "two\nlines"
        MPDSong.add(evil, to: &bare, tags: [.title], previewMs: 1234)
        XCTAssertEqual(String(decoding: bare.bytes, as: UTF8.self), "file: itunes:track:1001\nTitle: two lines\nTime: 1\nduration: 1.234\n")
        // What plays is the preview: 30 s for a 3:07 song until it is decoded, then exact; the
        // song's own length is the Comment tag.
        var long = sine
        long.trackTimeMillis = 187_000
        var estimated = MPDResponse()
        MPDSong.add(long, to: &estimated, tags: [.comment])
        XCTAssertEqual(String(decoding: estimated.bytes, as: UTF8.self), "file: itunes:track:1001\nComment: full song 3:07\nTime: 30\nduration: 30.000\n")
        var decoded = MPDResponse()
        MPDSong.add(long, to: &decoded, tags: [], previewMs: 29_976)
        XCTAssertEqual(String(decoding: decoded.bytes, as: UTF8.self), "file: itunes:track:1001\nTime: 30\nduration: 29.976\n")
        XCTAssertThrowsError(try MPDSong.target("itunes:track:1001/"), "a song's folder form is no song")
        XCTAssertEqual(try MPDSong.target("itunes:album:701"), .album(701))
        XCTAssertEqual(try MPDSong.target("https://example.com/a.m4a"), .url("https://example.com/a.m4a"))
        XCTAssertThrowsError(try MPDSong.target("file:///etc/passwd"))
        XCTAssertThrowsError(try MPDSong.target("itunes:track:-1"))
    }

    func testTheListenPlan() throws {
        let env = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        let byDefault = try MPDListenPlan(values: [], password: nil, environment: env)
        XCTAssertEqual(byDefault.addresses, [.unix("/run/user/1000/previewd/mpd.sock")])
        XCTAssertTrue(byDefault.isDefault)
        XCTAssertEqual(try MPDListenPlan(values: ["off"], password: nil, environment: env).addresses, [])
        XCTAssertEqual(try MPDListenPlan(values: ["127.0.0.1:6600", "/tmp/x/mpd.sock", "[::1]:6601"], password: nil, environment: env).addresses,
                       [.tcp(host: "127.0.0.1", port: 6600), .unix("/tmp/x/mpd.sock"), .tcp(host: "::1", port: 6601)])
        XCTAssertEqual(try MPDListenPlan(values: ["0.0.0.0:6600"], password: "s3cret", environment: env).addresses, [.tcp(host: "0.0.0.0", port: 6600)])
        XCTAssertThrowsError(try MPDListenPlan(values: ["0.0.0.0:6600"], password: nil, environment: env)) { error in
            XCTAssertTrue((error as? FrontEndError)?.message.contains("not a loopback address") == true, "\(error)")
        }
        XCTAssertThrowsError(try MPDListenPlan(values: ["off", "127.0.0.1:1"], password: nil, environment: env))
        XCTAssertThrowsError(try MPDListenPlan(values: ["nonsense"], password: nil, environment: env))
        XCTAssertTrue(MPDListenPlan.isLoopback(host: "127.3.4.5"))
        XCTAssertTrue(MPDListenPlan.isLoopback(host: "::ffff:127.0.0.1"))
        XCTAssertFalse(MPDListenPlan.isLoopback(host: "192.168.1.2"))
        XCTAssertFalse(MPDListenPlan.isLoopback(host: "::"))
    }
}
