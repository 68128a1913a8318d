import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The catalog commands through previewctl and previewd, against the stand-in, heard on a null sink.
final class CatalogEndToEndTests: SharedServerTestCase {
    func testArtistAndAlbumQueuesTheAlbumAndPlaysIt() throws {
        let mark = recorder.sampleCount
        let result = try daemon.ctl("search", "--artist", "sine waves", "--album", "short tones")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("album: Short Tones"), result.stdout)
        expectTone(770, after: mark, "the album's first song")
        XCTAssertEqual(try queue().items.map(\.track.trackId), [3001, 3002])
        XCTAssertTrue(standIn.requestLog.contains { $0.contains("/lookup?id=703&entity=song") })
    }

    func testLookupTopSortAndAppend() throws {
        var mark = recorder.sampleCount
        let lookup = try daemon.ctl("--json", "lookup", "702")
        XCTAssertEqual(lookup.status, 0, lookup.stderr)
        let report = try JSONDecoder().decode(CatalogReport.self, from: Data(lookup.stdout.utf8))
        XCTAssertEqual(report.results.first?.wrapperType, "collection", "Apple's field names, the album first")
        XCTAssertEqual(Set(report.notQueued.map(\.reason)), ["an album, not a track", "no preview"])
        XCTAssertEqual(try queue().items.map(\.track.trackId), [2002, 2003])
        expectTone(660, after: mark, "the album's playable song after its 404")

        let appended = try daemon.ctl("lookup", "3001,3002", "--append", "--sort", "title")
        XCTAssertEqual(appended.status, 0, appended.stderr)
        XCTAssertTrue(appended.stdout.contains("queued from index 2"), appended.stdout)
        XCTAssertEqual(try queue().items.map(\.track.trackId), [2002, 2003, 3002, 3001])

        mark = recorder.sampleCount
        let top = try daemon.ctl("top", "--limit", "3", "--sort", "duration")
        XCTAssertEqual(top.status, 0, top.stderr)
        XCTAssertEqual(try queue().items.map(\.track.trackId), [1001, 1002, 1003])
        expectTone(440, after: mark, "the chart's first song")
        XCTAssertTrue(standIn.requestLog.contains { $0.contains("/us/rss/topsongs/limit=3/json") })
        let more = try daemon.ctl("more")
        XCTAssertEqual(more.status, 1, "the chart replaced the queue: there is no search to continue")
        XCTAssertTrue(more.stderr.contains("no search to continue"), more.stderr)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--sort", "duration").status, 0)
        expectTone(770, after: mark, "sorted by duration, the 2-second tones come first")
        XCTAssertEqual(try queue().items.prefix(2).map(\.track.trackId), [3001, 3002])
    }

    func testMorePagesAndNoPlayAndTheTableFitsTheTerminal() throws {
        let first = try ProcessRunner.run(BuildProducts.path("previewctl")!, ["--socket", daemon.socketPath, "search", "sine", "--limit", "3", "--no-play"],
                                          environment: ProcessInfo.processInfo.environment.merging(["COLUMNS": "60"]) { $1 })
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("previewctl more"), first.stdout)
        for line in first.stdout.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 60, String(line)) }
        XCTAssertEqual(try status().state, .stopped, "--no-play only queues")
        let more = try daemon.ctl("more")
        XCTAssertEqual(more.status, 0, more.stderr)
        XCTAssertTrue(more.stdout.contains("queued from index 3"), more.stdout)
        XCTAssertEqual(try queue().items.map(\.track.trackId), [1001, 1002, 1003, 1004, 1005, 2003])
        XCTAssertTrue(standIn.requestLog.last { $0.contains("/search") }!.contains("limit=3&offset=3"))
        let end = try daemon.ctl("more")
        XCTAssertEqual(end.status, 0)
        let last = try daemon.ctl("more")
        XCTAssertEqual(last.status, 5, "no more results: \(last.stderr)")
    }

    /// Titles in wide characters (CJK, emoji) take two cells each: the table's columns stay aligned
    /// and no line is wider than the terminal.
    func testWideTitlesKeepTheTableAligned() throws {
        let titles = ["東京事変の夜の長い長い題名", "Café ☕ Night", "Plain"]
        standIn.setFault(.answer(titles.enumerated().map { i, title in
            var track = Track(trackId: 60 + i, trackName: title, artistName: "The Sine Waves",
                              previewUrl: "\(standIn.baseURL)/previews/tone-440.m4a")
            track.wrapperType = "track"
            return track
        }), forPathPrefix: "/search")
        defer { standIn.setFault(nil, forPathPrefix: "/search") }
        let result = try ProcessRunner.run(BuildProducts.path("previewctl")!, ["--socket", daemon.socketPath, "search", "wide", "--no-play"],
                                           environment: ProcessInfo.processInfo.environment.merging(["COLUMNS": "60"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = result.stdout.split(separator: "\n").map(String.init).filter { $0.contains("The S") }
        guard rows.count == 3 else { return XCTFail("three rows with the artist: \(result.stdout)") }
        for row in result.stdout.split(separator: "\n") { XCTAssertLessThanOrEqual(DisplayText.cells(String(row)), 60, String(row)) }
        let artistColumn = rows.map { DisplayText.cells(String($0[..<$0.range(of: "The S")!.lowerBound])) }
        XCTAssertEqual(Set(artistColumn).count, 1, "the artist column starts at one cell in every row:\n\(result.stdout)")
        XCTAssertTrue(rows[0].contains("東京") && rows[0].contains("…"), "the wide title is cut with an ellipsis: \(rows[0])")
    }

    func testInfoAndShare() throws {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "eleven hundred").status, 0)
        expectTone(1100, after: mark, "the track")
        let share = try daemon.ctl("share")
        XCTAssertEqual(share.stdout, "Listening to C Eleven Hundred by The Sine Waves — https://music.apple.com/us/album/701?i=1004&uo=4\n")
        let parts = try JSONDecoder().decode(ShareReport.self, from: Data(try daemon.ctl("--json", "share").stdout.utf8))
        XCTAssertEqual(parts.title, "C Eleven Hundred")
        let info = try daemon.ctl("info")
        XCTAssertEqual(info.status, 0, info.stderr)
        for expected in ["C Eleven Hundred", "Pure Tones", "2005-01-01", "0:08", "Electronic", "1.29 USD", "artist link",
                         "https://music.apple.com/us/artist/501?uo=4"] {
            XCTAssertTrue(info.stdout.contains(expected), "\(expected) missing:\n\(info.stdout)")
        }
        XCTAssertEqual(try daemon.ctl("info", "9").status, 1)
    }

    func testAFilmsPreviewPlaysItsAudioAndInfoShowsTheFilmsDetails() throws {
        let mark = recorder.sampleCount
        let result = try daemon.ctl("search", "tone poem", "--media", "movie")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(standIn.requestLog.last { $0.contains("/search") }!.contains("term=tone%20poem&media=movie&limit=50"))
        expectTone(880, after: mark, "the audio track of the m4v preview")
        let info = try daemon.ctl("info").stdout
        for expected in ["director    Ada Director", "kind        feature-movie", "description A sine wave leaves home to find",
                         "rating      R", "12.99 USD", "2:01:44"] {
            XCTAssertTrue(info.contains(expected), "\(expected) missing:\n\(info)")
        }
        XCTAssertFalse(info.contains("album"), info)
    }

    func testHostileResultsAreShownSafelyAndNeverFetched() throws {
        let base = standIn.baseURL
        let body = #"""
        {"resultCount": 8, "results": [
          {"wrapperType": "track", "trackId": 8, "trackName": "Local service", "previewUrl": "http://127.0.0.1:1/admin.m4a"},
          {"wrapperType": "track", "trackId": 1, "trackName": "Evil\u001b]0;pwned\u0007\u001b[2J", "artistName": "\u202eenoemos", "previewUrl": "file:///etc/passwd"},
          {"wrapperType": "track", "trackId": 2, "trackName": "Concat", "previewUrl": "concat:/etc/passwd|/etc/hosts"},
          {"wrapperType": "track", "trackId": 3, "trackName": "FTP", "previewUrl": "ftp://127.0.0.1/x.m4a"},
          {"wrapperType": "track", "trackId": 4, "trackName": "Data", "previewUrl": "data:audio/mp4;base64,AAAA"},
          {"wrapperType": "track", "trackId": 5, "trackName": "Bare path", "previewUrl": "/etc/passwd"},
          {"wrapperType": "track", "trackId": 6, "trackName": ["wrong", "type"]},
          {"wrapperType": "track", "trackId": 7, "trackName": "Good", "artistName": "Fine", "previewUrl": "\#(base)/previews/tone-550.m4a"}
        ]}
        """#
        standIn.setFault(.body(Array(body.utf8), contentType: "text/javascript"), forPathPrefix: "/search")
        let mark = recorder.sampleCount
        let result = try daemon.ctl("search", "anything")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\u{202E}" },
                       "terminal escapes reached the output")
        XCTAssertTrue(result.stdout.contains("1 malformed entry skipped"), result.stdout)
        XCTAssertTrue(result.stdout.contains("local or private address (127.0.0.1)"), result.stdout)
        for scheme in ["file", "concat", "ftp", "data"] {
            XCTAssertTrue(result.stdout.contains("preview URL scheme \"\(scheme)\" is not http or https"), "\(scheme):\n\(result.stdout)")
        }
        expectTone(550, after: mark, "the one good result")
        XCTAssertEqual(try queue().items.map(\.track.trackId), [7])
        let fetched = standIn.requestLog.filter { !$0.contains("/search") }
        XCTAssertEqual(fetched.count, 1, "only the good preview is fetched: \(fetched)")

        // --json carries the same names, escaped: valid JSON that a terminal cannot act on.
        let json = try daemon.ctl("--json", "search", "anything", "--no-play")
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\u{202E}" },
                       "terminal escapes reached the JSON output")
        XCTAssertTrue(json.stdout.contains(#"\u202eenoemos"#) && json.stdout.contains(#"\u001b"#), json.stdout)
        let names = try JSONDecoder().decode(CatalogReport.self, from: Data(json.stdout.utf8)).results.compactMap(\.artistName)
        XCTAssertTrue(names.contains("\u{202E}enoemos"), "the JSON still means the same: \(names)")
    }

    /// Apple's real answers (Tests/Fixtures/apple) through previewctl: what is queued, what is named
    /// and not played, what is refused and why, and the words.
    func testApplesRealAnswersAsAListenerSeesThem() throws {
        try standIn.addRecordings(in: Fixtures.directory.appendingPathComponent("apple"))
        let mark = recorder.sampleCount
        let mixed = try daemon.ctl("search", "store", "--media", "all")
        XCTAssertEqual(mixed.status, 0, mixed.stderr)
        XCTAssertTrue(mixed.stdout.contains("2 of 5 results have a preview: 1 podcast, 1 ebook, 1 app have none"), mixed.stdout)
        XCTAssertTrue(mixed.stdout.contains("2 of 5 results queued"), mixed.stdout)
        XCTAssertEqual(try queue().items.map(\.track.trackId), [1422648513, 366048490], "the song and the audiobook")
        expectTone(440, after: mark, "the song of a mixed answer")

        let podcast = try daemon.ctl("search", "angular air", "--media", "podcast", "--entity", "podcast")
        XCTAssertEqual(podcast.status, 5, "found, but nothing to play")
        XCTAssertTrue(podcast.stderr.contains("1 podcast has none (previewd plays the store's previews, and a podcast has none)"), podcast.stderr)
        XCTAssertEqual(try daemon.ctl("search", "sine", "--entity", "podcastEpisode", "--no-queue").status, 0, "an entity Apple accepts")

        let chart = try daemon.ctl("--json", "top", "--country", "ca", "--limit", "3", "--no-queue")
        XCTAssertEqual(chart.status, 0, chart.stderr)
        let rows = try JSONDecoder().decode(CatalogReport.self, from: Data(chart.stdout.utf8))
        XCTAssertEqual(rows.results.map(\.trackId), [1552791427, 1552739372, 1544839502])
        // Albums only (Apple's chart gave albums): each listed with the lookup that queues its songs.
        let current = try daemon.ctl("top", "--country", "ca", "--limit", "10")
        XCTAssertEqual(current.status, 0, current.stderr)
        XCTAssertTrue(current.stdout.contains("to queue an album's songs:\n  previewctl lookup 1464185222   4REAL 4REAL"), current.stdout)

        let refused = try daemon.ctl("search", "bad request")
        XCTAssertEqual(refused.status, 8)
        XCTAssertTrue(refused.stderr.contains("Invalid value(s) for key(s): [resultEntity] (previewd sent entity=song)"), refused.stderr)
        let slow = try daemon.ctl("search", "slow down")
        XCTAssertEqual(slow.status, 9)
        XCTAssertTrue(slow.stderr.contains("Apple asks to wait 2 min"), slow.stderr)
        let country = try daemon.ctl("search", "abba", "--country", "zz")
        XCTAssertEqual(country.status, 2, "a usage error, before any call")
        XCTAssertTrue(country.stderr.contains("ISO 3166-1"), country.stderr)
        XCTAssertFalse(standIn.requestLog.contains { $0.contains("country=ZZ") })

        let albums = try daemon.ctl("search", "--artist", "sine waves", "--albums")
        XCTAssertEqual(albums.status, 0, albums.stderr)
        XCTAssertTrue(albums.stdout.contains("previewctl lookup 703   Short Tones"), albums.stdout)
        XCTAssertTrue(standIn.requestLog.contains { $0.contains("media=music&entity=album&attribute=artistTerm") })
        let artist = try daemon.ctl("lookup", "3996865", "--no-queue")
        XCTAssertEqual(artist.status, 0, artist.stderr)
        XCTAssertTrue(artist.stdout.contains("to queue an artist's songs:\n  previewctl lookup 3996865   Metallica"), artist.stdout)
        XCTAssertEqual(try queue().items.map(\.track.trackId), [1422648513, 366048490], "--no-queue left the queue as it was")
        XCTAssertTrue(daemon.isRunning)
    }

    func testCatalogErrorsKeepQueueAndPlayback() throws {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result")
        let cases: [(StandInFault, Int32, String)] = [
            (.status(429), 9, "rate limiting"),
            (.status(403), 9, "rate limiting"),
            (.html, 10, "HTML"),
            (.body(Array(#"{"resultCount":1,"resu"#.utf8), contentType: "text/javascript"), 10, "not JSON"),
        ]
        for (fault, exit, message) in cases {
            standIn.setFault(fault, forPathPrefix: "/search")
            let result = try daemon.ctl("search", "sine \(exit) \(message)")
            XCTAssertEqual(result.status, exit, "\(fault): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        let report = try status()
        XCTAssertEqual(report.queueLength, 7)
        XCTAssertEqual(report.state, .playing)
        XCTAssertTrue(daemon.isRunning)
    }
}

/// `--autopage` and a slow catalog, on a daemon of their own.
final class AutopageEndToEndTests: DaemonTestCase {
    func testAutopageAppendsTheNextPageNearTheEndAndTimeoutsAreClear() throws {
        let sink = try PulseNullSink()
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", sink.name, "--autopage", "--catalog-timeout", "1"])
        XCTAssertEqual(try daemon.ctl("search", "sine", "--limit", "2").status, 0)
        XCTAssertEqual(try daemon.ctl("play", "1").status, 0)
        XCTAssertEqual(try waitForStatus { $0.queueLength != 2 }.queueLength, 4, "the next page was appended by itself")
        XCTAssertTrue(standIn.requestLog.contains { $0.contains("limit=2&offset=2") })

        standIn.setFault(.delay(milliseconds: 2500), forPathPrefix: "/search")
        let slow = try daemon.ctl("search", "sine waves")
        XCTAssertEqual(slow.status, 7, slow.stderr)
        XCTAssertTrue(slow.stderr.contains("did not answer within 1 s"), slow.stderr)
        XCTAssertEqual(try status().queueLength, 4)
    }
}
