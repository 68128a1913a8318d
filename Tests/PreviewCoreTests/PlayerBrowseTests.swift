import Foundation
import PreviewCore
import XCTest

/// Browsing in `previewctl player` without a terminal: the keys' bytes, the cursor and its window,
/// a click's row, the heads following the cursor, the results' table, its sort and the row's details.
final class PlayerBrowseTests: XCTestCase {
    private func tracks(_ count: Int) -> [Track] {
        (0..<count).map { i in
            var t = Track(trackId: 1000 + i, trackName: "Tone \(i)", artistName: i % 2 == 0 ? "The Sine Waves" : "Square Roots", collectionName: "Pure Tones")
            t.releaseDate = "20\(10 + i % 10)-01-01T12:00:00Z"
            t.trackTimeMillis = 30_000 + i * 1000
            t.trackPrice = 0.99 + Double(i % 3)
            t.currency = "USD"
            t.primaryGenreName = i % 2 == 0 ? "Electronic" : "Ambient"
            return t
        }
    }

    private func screen(queue: Int = 40, current: Int = 20) -> PlayerScreen {
        var s = PlayerScreen()
        let list = tracks(queue)
        s.queue = QueueReport(index: current, items: list.enumerated().map { QueueItem(track: $0.element, id: $0.offset + 1) })
        s.queue?.items[current + 1].reason = RadioReason("radio: more from Square Roots, whose Tone 3 you marked")
        s.status = StatusReport(state: .playing, index: current, positionMs: 1_000, durationMs: 30_000, queueLength: queue,
                                track: list[current], error: nil, output: "ok")
        return s
    }

    private func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    func testTheBrowsingKeysAndClicksAreDecoded() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.keys(from: Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH".utf8)),
                       [.pageUp, .pageDown, .home, .end, .home, .end, .home])
        XCTAssertEqual(decoder.keys(from: Array("\u{1B}[<0;12;9M\u{1B}[<0;12;9m\u{1B}[<65;1;1Mj".utf8)),
                       [.mouse(button: 0, column: 12, row: 9), .mouse(button: 65, column: 1, row: 1), .character("j")],
                       "a press counts, its release does not")
        XCTAssertEqual(decoder.keys(from: Array("\u{1B}[<0;1".utf8)), [], "a click split across reads waits for its end")
        XCTAssertEqual(decoder.keys(from: Array(";2M".utf8)), [.mouse(button: 0, column: 1, row: 2)])
    }

    /// Each key of the table arrives as the bytes a terminal sends and does what the table says.
    func testTheKeysAsTheTerminalSendsThemMeanWhatTheTableSays() {
        let bytes: [String: PlayerAction] = [
            " ": .toggle, "\u{1B}[A": .cursorUp, "\u{1B}[B": .cursorDown, "k": .cursorUp, "j": .cursorDown, "\u{1B}[5~": .pageUp,
            "\u{1B}[6~": .pageDown, "\u{1B}[H": .first, "\u{1B}[F": .last, "\r": .playRow, "d": .removeRow, "K": .moveRowUp,
            "J": .moveRowDown, "/": .search, "\t": .switchView, "a": .addResult, "R": .replaceWithResults, "c": .sortNext,
            "C": .sortReverse, "\u{1B}[D": .seekBack, "\u{1B}[C": .seekOn, "n": .next, "p": .previous, "+": .volumeUp, "-": .volumeDown,
            "m": .mark, "M": .mute, "s": .shuffle, "r": .cycleRepeat, "o": .open, "?": .help, "q": .quit,
        ]
        for (sent, action) in bytes {
            var decoder = KeyDecoder()
            let keys = decoder.keys(from: Array(sent.utf8))
            XCTAssertEqual(keys.count, 1, sent.debugDescription)
            XCTAssertEqual(keys.first.flatMap(PlayerKeys.action(for:)), action, sent.debugDescription)
        }
        XCTAssertEqual(Set(bytes.values.map { "\($0)" }), Set(PlayerAction.allCases.map { "\($0)" }), "every action reached from a key")
        XCTAssertNil(PlayerKeys.action(for: .character("x")))
    }

    func testTheCursorStartsOnTheCurrentItemAndTheWindowAndTheHeadsFollowIt() {
        var s = screen()
        XCTAssertEqual(s.cursor, 20, "on the current item until moved")
        let area = try! XCTUnwrap(s.listArea(width: 80, height: 24))
        s.move(.down, rows: area.rows)
        XCTAssertEqual(s.cursor, 21)
        XCTAssertTrue(s.lines(width: 80, height: 24).contains { $0.hasPrefix("\u{1B}[7m") && visible($0).contains("21 + Tone 21") },
                      "the cursor's row reversed, radio's mark on it")
        let lines = s.lines(width: 80, height: 24).map(visible)
        let detail = try! XCTUnwrap(lines.firstIndex { $0.hasPrefix("▸ Tone 21") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[detail + 1].contains("radio: more from Square Roots"), "the row's details say why radio queued it")
        s.move(.last, rows: area.rows)
        XCTAssertEqual(s.cursor, 39)
        XCTAssertTrue(s.visibleTrackIds(width: 80, height: 24).contains(1039), "the heads follow the cursor to the end")
        XCTAssertFalse(s.visibleTrackIds(width: 80, height: 24).contains(1020))
        s.move(.pageUp, rows: area.rows)
        XCTAssertEqual(s.cursor, 39 - (area.rows - 1))
        s.move(.first, rows: area.rows)
        XCTAssertEqual(s.cursor, 0)
        s.move(.up, rows: area.rows)
        XCTAssertEqual(s.cursor, 0, "never above the first row")
        for size in [(40, 12), (80, 24), (200, 60)] {
            XCTAssertTrue(s.lines(width: size.0, height: size.1).map(visible).allSatisfy { DisplayText.cells($0) <= size.0 })
            XCTAssertEqual(s.lines(width: size.0, height: size.1).count, size.1)
        }
    }

    func testAClickLandsOnTheRowItShows() throws {
        var s = screen()
        let area = try XCTUnwrap(s.listArea(width: 80, height: 24))
        let lines = s.lines(width: 80, height: 24).map(visible)
        // The terminal counts rows from 1; the screen's lines from 0.
        let row = area.firstRow + 3
        let target = try XCTUnwrap(s.listRow(clickedAt: row + 1, width: 80, height: 24))
        XCTAssertTrue(lines[row].contains("Tone \(target)"), "\(lines[row]) is row \(target)")
        s.move(.to(target), rows: area.rows)
        XCTAssertEqual(s.cursor, target)
        XCTAssertNil(s.listRow(clickedAt: 1, width: 80, height: 24), "the header is no row")
    }

    func testTheResultsAreATableSortedByItsColumnsTheCursorKeepingItsTrack() {
        var s = screen(queue: 3, current: 0)
        s.results = tracks(12)
        s.resultsTitle = "tones"
        s.view = .results
        s.move(.to(5), rows: 10)
        let lines = s.lines(width: 100, height: 30).map(visible)
        let header = try! XCTUnwrap(lines.first { $0.contains("title") && $0.contains("artist") })
        for column in ["album", "released", "time", "genre", "price"] { XCTAssertTrue(header.contains(column), header) }
        XCTAssertTrue(lines.contains { $0.contains("Tone 5") && $0.contains("2015-01-01") && $0.contains("0:35") && $0.contains("Ambient") })
        XCTAssertEqual(s.visibleTrackIds(width: 100, height: 30).first, 1000, "the results' heads")
        s.sortResults(reverse: false)   // title
        s.sortResults(reverse: false)   // artist
        XCTAssertEqual(s.resultsSort, TrackSort(.artist))
        XCTAssertEqual(s.rowTrack(s.cursor)?.trackId, 1005, "the cursor stays on its track")
        XCTAssertEqual(s.results.first?.artistName, "Square Roots")
        s.sortResults(reverse: true)
        XCTAssertEqual(s.results.first?.artistName, "The Sine Waves")
        XCTAssertTrue(s.lines(width: 100, height: 30).map(visible).contains { $0.contains("artist▼") })
        XCTAssertEqual(s.rowTrack(s.cursor)?.trackId, 1005)
    }
}
