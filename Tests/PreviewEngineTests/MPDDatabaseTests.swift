import Foundation
@testable import PreviewEngine
import PreviewCore
import PreviewTestSupport
import XCTest

/// The MPD front-end's database, made of what previewd met: Apple's real answers
/// (`Tests/Fixtures/apple`) as the track memory holds them, filed each song once, in folders named
/// as a listener would, the names safe and bounded.
final class MPDDatabaseTests: XCTestCase {
    private func answer(_ file: String) throws -> [Track] {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("apple/\(file)"))
        return try JSONDecoder().decode(SearchResponse.self, from: data).results.filter { $0.isTrackLike && $0.trackId != nil }
    }

    /// ABBA's songs (`search?term=abba`), Slayer's album (`lookup?id=1038991417`), Jack Johnson's
    /// answer with its films; one ABBA song marked, one Slayer song heard.
    private func library() throws -> (LibraryReport, abba: [Track], slayer: [Track]) {
        let abba = try answer("search-songs-us.json"), slayer = try answer("lookup-album-songs-gb.json")
        let films = try answer("search-song-and-films.json")
        let ways = [LibraryReport.Way(.marked, trackIds: [abba[1].trackId!]),
                    LibraryReport.Way(.heard, trackIds: [slayer[0].trackId!, 424242]),
                    LibraryReport.Way(.search, words: "jack johnson", trackIds: films.compactMap(\.trackId)),
                    LibraryReport.Way(.search, words: "abba", trackIds: abba.compactMap(\.trackId))]
        return (LibraryReport(ways: ways, tracks: films + abba + slayer), abba, slayer)
    }

    func testEachSongIsFiledOnceInTheFirstWayThatHasIt() throws {
        let (report, abba, slayer) = try library()
        let database = MPDDatabase(report, updated: 1_700_000_000)
        XCTAssertEqual(database.songs.count, report.tracks.count)
        XCTAssertEqual(database.directory("")?.folders, ["Marked", "Heard", "Searches", "Other"])
        XCTAssertEqual(database.directory("/")?.folders, database.directory("")?.folders, "`/` is the root, as MPD takes it")
        XCTAssertEqual(database.directory("Searches")?.folders, ["Searches/jack johnson", "Searches/abba"])
        XCTAssertEqual(database.directory("Marked")?.songs, [abba[1].trackId!])
        XCTAssertEqual(database.directory("Heard")?.songs, [slayer[0].trackId!], "a heard id the library has no record of is not listed")
        XCTAssertEqual(database.directory("Searches/abba")?.songs, [abba[0].trackId!, abba[2].trackId!], "the marked one is filed there only")
        XCTAssertNil(database.directory("Searches/abba/"), "a trailing slash names no folder, as in MPD's database")
        XCTAssertEqual(database.directory("Other")?.songs, slayer.dropFirst().compactMap(\.trackId), "the album looked up")
        let filed = database.directories.values.flatMap(\.songs)
        XCTAssertEqual(filed.count, Set(filed).count, "no song in two folders: Cantata would count it twice")
        XCTAssertEqual(Set(filed), Set(database.songs.compactMap(\.trackId)), "every song in one")
        XCTAssertEqual(database.songs(under: "").count, database.songs.count)
        XCTAssertEqual(database.songs(under: "Searches").count, 7)
        XCTAssertNil(database.directory("Nowhere"))
    }

    func testStatsCountArtistsAlbumsAndWhatThePreviewsPlay() throws {
        let (report, _, _) = try library()
        let database = MPDDatabase(report, updated: 1)
        XCTAssertEqual(database.count(of: .artist), 6, "ABBA, Slayer, and the four of the Jack Johnson answer")
        XCTAssertEqual(database.count(of: .album), 6, "Gold, Reign In Blood, and four of the other answer")
        // Every song of these answers is longer than its preview: 30 s each, but the films' sound.
        XCTAssertEqual(database.playtimeSeconds, database.songs.count * 30)
        XCTAssertEqual(MPDDatabase.empty.songs.count, 0)
        XCTAssertEqual(MPDDatabase.empty.directory("")?.folders, [])
    }

    func testTheChartIsNamedByItsCountry() throws {
        let (report, abba, _) = try library()
        var withChart = report
        withChart.ways.insert(LibraryReport.Way(.chart, words: "US", trackIds: [abba[0].trackId!]), at: 2)
        XCTAssertEqual(MPDDatabase(withChart, updated: 1).directory("")?.folders, ["Marked", "Heard", "Top songs (US)", "Searches", "Other"])
    }

    func testASearchsWordsBecomeASafeBoundedName() {
        var taken = Set<String>()
        XCTAssertEqual(MPDDatabase.folderName("AC/DC", taken: &taken), "AC∕DC", "a slash would nest it")
        XCTAssertEqual(MPDDatabase.folderName("two\nlines\tand\u{1B}[31m", taken: &taken), "two lines and [31m")
        XCTAssertEqual(MPDDatabase.folderName("../..", taken: &taken), "∕..", "no `.` or `..` folder")
        XCTAssertEqual(MPDDatabase.folderName("   ", taken: &taken), "(no words)")
        let long = MPDDatabase.folderName(String(repeating: "é", count: 500), taken: &taken)
        XCTAssertEqual(long.count, MPDDatabase.maxNameLength)
        XCTAssertTrue(long.hasSuffix("…"))
        XCTAssertEqual(MPDDatabase.folderName("AC∕DC", taken: &taken), "AC∕DC (2)", "two searches, two folders")
        XCTAssertEqual(MPDDatabase.folderName("AC/DC", taken: &taken), "AC∕DC (3)")
    }
}
