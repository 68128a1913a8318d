import PreviewCore
import XCTest

/// The answers the library keeps as ways to tracks: the latest chart, the recent searches newest
/// first, bounded; and the track memory read whole, newest first, with a version that moves only
/// when what it holds changes.
final class RecentAnswersTests: XCTestCase {
    private func tracks(_ ids: ClosedRange<Int>) -> [Track] { ids.map { Track(trackId: $0, previewUrl: "https://example.com/\($0).m4a") } }

    func testSearchesAreKeptNewestFirstAndBounded() {
        var recent = RecentAnswers()
        recent.searched("sine", tracks(1...3))
        recent.searched("square", tracks(4...5))
        recent.searched("", tracks(6...6))
        XCTAssertEqual(recent.searches.map(\.words), ["square", "sine"], "no words, no way")
        recent.searched("sine", tracks(7...8))
        XCTAssertEqual(recent.searches.map(\.words), ["sine", "square"], "asked again: the newer answer, first")
        XCTAssertEqual(recent.searches[0].trackIds, [7, 8])
        recent.searched("sine", tracks(7...9), continuing: true)
        XCTAssertEqual(recent.searches[0].trackIds, [7, 8, 9], "`more` pages grow the answer, once each")
        var artist = Track(trackId: 99)
        artist.wrapperType = "artist"
        recent.searched("artists", [artist])
        XCTAssertEqual(recent.searches.count, 2, "an answer of no tracks is no way to tracks")
        for i in 0..<40 { recent.searched("q\(i)", tracks(1...1)) }
        XCTAssertEqual(recent.searches.count, RecentAnswers.maxSearches)
        XCTAssertEqual(recent.searches.first?.words, "q39")
        recent.searched("big", tracks(1...5000))
        XCTAssertEqual(recent.searches[0].trackIds.count, RecentAnswers.maxIds)
    }

    func testTheChartComesFirstWithItsCountry() {
        var recent = RecentAnswers()
        recent.searched("sine", tracks(1...2))
        recent.charted("gb", tracks(3...4))
        XCTAssertEqual(recent.ways, [LibraryReport.Way(.chart, words: "GB", trackIds: [3, 4]),
                                     LibraryReport.Way(.search, words: "sine", trackIds: [1, 2])])
        XCTAssertEqual(CatalogQuery(term: "jack", artist: "johnson").words, "jack johnson")
    }

    func testTheMemoryReadsNewestFirstAndItsVersionMovesWithWhatItHolds() {
        var memory = TrackMemoryCore(capacity: 3)
        memory.remember(tracks(1...3))
        let version = memory.version
        XCTAssertEqual(memory.newestFirst.map(\.trackId), [3, 2, 1])
        memory.remember(tracks(2...2))
        XCTAssertEqual(memory.version, version, "seen again: the same tracks")
        XCTAssertEqual(memory.newestFirst.map(\.trackId), [2, 3, 1])
        memory.remember(tracks(4...4))
        XCTAssertNotEqual(memory.version, version, "one came in, one went")
        XCTAssertEqual(memory.newestFirst.map(\.trackId), [4, 2, 3])
    }
}
