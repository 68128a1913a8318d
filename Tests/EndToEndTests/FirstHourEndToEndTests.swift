import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// What a new user meets in the first hour with previewctl (issue 55, item 5), each as they would
/// type it: an answer about what was asked, the exit status `--help` documents, nothing lost.
final class FirstHourEndToEndTests: SharedServerTestCase {
    private func trackIds(_ q: QueueReport) -> [Int] { q.items.map { $0.track.trackId ?? 0 } }

    /// `save NAME` over an existing list is refused (as MPD's `save` is) and the list stays whole;
    /// `--replace` replaces it, `--append` adds to it; both at once is bad usage.
    func testSavingOverAListIsRefusedUnlessReplaceOrAppendSaysSo() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "3", "--no-play").status, 0)
        XCTAssertEqual(try daemon.ctl("save", "evening").status, 0)
        XCTAssertEqual(try daemon.ctl("remove", "0").status, 0)
        let again = try daemon.ctl("save", "evening")
        XCTAssertEqual(again.status, 1, again.stdout)
        XCTAssertTrue(again.stderr.contains("a list named \"evening\" exists already"), again.stderr)
        XCTAssertTrue(try daemon.ctl("lists").stdout.contains("evening  3 tracks"), "the list is whole")
        XCTAssertEqual(try daemon.ctl("save", "evening", "--replace").stdout, "saved \"evening\": 2 tracks\n")
        XCTAssertEqual(try daemon.ctl("save", "evening", "--append").stdout, "saved \"evening\": 4 tracks\n")
        XCTAssertEqual(try daemon.ctl("save", "evening", "--append", "--replace").status, 2)
    }

    /// An add or a load that queues nothing has not done what was asked: exit 5, naming what was
    /// not found (issue 55: `added 0 tracks (ids )`, exit 0).
    func testAnAddOrALoadThatQueuesNothingExits5NamingWhatWasNotFound() throws {
        let unknown = try daemon.ctl("add", "--ids", "99999")
        XCTAssertEqual(unknown.status, 5, unknown.stdout)
        XCTAssertTrue(unknown.stderr.contains("nothing added: track 99999 not found in the catalog"), unknown.stderr)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertEqual(try daemon.ctl("--json", "add", "--ids", "99999").status, 5, "the same with --json")
        // A list whose only track has no preview.
        _ = try daemon.request(#"{"id":1,"cmd":"listadd","args":{"name":"silent","tracks":[{"trackId":5,"trackName":"No Preview"}]}}"#)
        let load = try daemon.ctl("load", "silent")
        XCTAssertEqual(load.status, 5, load.stdout)
        XCTAssertTrue(load.stderr.contains("nothing added: #1"), load.stderr)
        XCTAssertEqual(try queue().items.count, 0, "nothing queued")
    }

    /// `mark 2` answers about track 2, not the one playing.
    func testMarkAndUnmarkAnswerAboutTheTrackNamed() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "3", "--no-play").status, 0)
        XCTAssertEqual(try daemon.ctl("play", "0").status, 0)
        let named = try queue().items[2].track.trackName ?? "?"
        let marked = try daemon.ctl("mark", "2")
        XCTAssertEqual(marked.status, 0, marked.stderr)
        XCTAssertTrue(marked.stdout.hasPrefix("★ marked") && marked.stdout.contains(named), marked.stdout)
        let unmarked = try daemon.ctl("unmark", "2")
        XCTAssertTrue(unmarked.stdout.hasPrefix("unmarked") && unmarked.stdout.contains(named), unmarked.stdout)
    }

    /// `more` past the last page: "no more results", exit 5; an artist search lists the artists
    /// with the `lookup ID` that queues each one's songs, exit 0.
    func testMorePastTheEndAndAnArtistSearchSayWhatToDo() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine", "--limit", "5", "--no-play").status, 0)
        var last = try daemon.ctl("more")
        for _ in 0..<20 where last.status == 0 { last = try daemon.ctl("more") }
        XCTAssertEqual(last.status, 5, last.stdout)
        XCTAssertTrue(last.stderr.contains("no more results for"), last.stderr)

        let artists = try daemon.ctl("search", "sine", "--entity", "musicArtist")
        XCTAssertEqual(artists.status, 0, artists.stderr)
        XCTAssertTrue(artists.stdout.contains("to queue an artist's songs:\n  previewctl lookup 501"), artists.stdout)
    }

    /// `info` gives one artwork address; `lists` aligns names by the cells they take; `help` of a
    /// command that does not exist is bad usage; `--json export` is JSON.
    func testInfoListsHelpAndExportSayThingsOnceAlignedAndAsAsked() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "2", "--no-play").status, 0)
        let info = try daemon.ctl("info", "0")
        let artwork = info.stdout.split(separator: "\n").filter { $0.hasPrefix("artwork") }
        XCTAssertEqual(artwork.count, 1, info.stdout)
        XCTAssertEqual(artwork.first?.split(separator: " ").count, 2, "one address: \(info.stdout)")

        XCTAssertEqual(try daemon.ctl("save", "Café").status, 0)
        XCTAssertEqual(try daemon.ctl("save", "evening").status, 0)
        let lists = try daemon.ctl("lists").stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lists, ["Café     2 tracks", "evening  2 tracks"])

        let nosuch = try daemon.ctl("help", "nosuch")
        XCTAssertEqual(nosuch.status, 2)
        XCTAssertTrue(nosuch.stderr.contains("no command \"nosuch\""), nosuch.stderr)
        XCTAssertEqual(try daemon.ctl("help", "add").status, 0)

        struct Playlist: Decodable { var tracks: [Track] }
        let exported = try daemon.ctl("--json", "export")
        let tracks = try JSONDecoder().decode(Playlist.self, from: Data(exported.stdout.utf8)).tracks
        XCTAssertEqual(tracks.map(\.trackId), trackIds(try queue()).map { $0 })
        XCTAssertNotNil(tracks.first?.previewUrl)
    }

    /// Relative changes clamp, absolute levels outside 0–100 are refused, a negative change may
    /// follow `--`.
    func testVolumeChangesClampAndLevelsOutsideTheRangeAreRefused() throws {
        XCTAssertEqual(try daemon.ctl("volume", "50").status, 0)
        XCTAssertEqual(try daemon.ctl("volume", "+200").status, 0)
        XCTAssertEqual(try status().volume, 100)
        XCTAssertEqual(try daemon.ctl("volume", "--", "-30").status, 0)
        XCTAssertEqual(try status().volume, 70)
        let refused = try daemon.ctl("volume", "200")
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("volume -- -5"), refused.stderr)
        XCTAssertEqual(try status().volume, 70)
    }

    /// With `--socket X` and no previewd there, the hint starts a previewd on X.
    func testTheHintToStartPreviewdNamesTheSocketGiven() throws {
        let path = NSTemporaryDirectory() + "no-previewd-\(getpid())/x.sock"
        let previewctl = try XCTUnwrap(BuildProducts.path("previewctl"))
        let result = try ProcessRunner.run(previewctl, ["--socket", path, "status"])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("Start it with: previewd --socket \(path)"), result.stderr)
    }
}
