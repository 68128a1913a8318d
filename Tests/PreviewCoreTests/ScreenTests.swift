import PreviewCore
import XCTest

/// The pieces of previewctl's terminal screens: the position bar, key decoding, the player's layout.
final class ScreenTests: XCTestCase {
    func testThePositionBarFillsWithTheTrack() {
        XCTAssertEqual(PositionBar.text(positionMs: 12_000, durationMs: 30_000, width: 20), "0:12 ━━━━────── 0:30")
        XCTAssertEqual(PositionBar.text(positionMs: 0, durationMs: nil, width: 14), "0:00 ──── -:--")
        XCTAssertEqual(PositionBar.text(positionMs: 40_000, durationMs: 30_000, width: 14), "0:40 ━━━━ 0:30")
        XCTAssertEqual(PositionBar.text(positionMs: 5_000, durationMs: 30_000, width: 10), "0:05 / 0:30", "too narrow for a bar")
        XCTAssertEqual(DisplayText.clock(3_723_000), "1:02:03")
    }

    func testKeysFromTheBytesATerminalSends() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.keys(from: Array(" nq/".utf8)), [.character(" "), .character("n"), .character("q"), .character("/")])
        XCTAssertEqual(decoder.keys(from: [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x1B, 0x4F, 0x41]), [.right, .left, .up])
        XCTAssertEqual(decoder.keys(from: [0x0D, 0x7F, 0x03, 0x1B]), [.enter, .backspace, .control("c"), .escape])
        // A sequence or a character split across reads waits for its end.
        XCTAssertEqual(decoder.keys(from: [0x1B, 0x5B]), [])
        XCTAssertEqual(decoder.keys(from: [0x43]), [.right])
        XCTAssertEqual(decoder.keys(from: [0xC3]), [])
        XCTAssertEqual(decoder.keys(from: [0xA9, 0x61]), [.character("é"), .character("a")])
        XCTAssertEqual(decoder.keys(from: [0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x78]), [.character("x")], "F5 means nothing")
        // A sequence that never ends is not kept growing: it is dropped and the keys after it count.
        XCTAssertEqual(decoder.keys(from: [0x1B, 0x5B] + Array(repeating: 0x31, count: 200)), [])
        XCTAssertEqual(decoder.keys(from: Array("nq".utf8)), [.character("n"), .character("q")])
    }

    func testCellsCountWideCharactersTwiceAndMarksNot() {
        XCTAssertEqual(DisplayText.cells("Jack Johnson"), 12)
        XCTAssertEqual(DisplayText.cells("東京事変"), 8, "CJK ideographs")
        XCTAssertEqual(DisplayText.cells("방탄소년단"), 10, "Hangul")
        XCTAssertEqual(DisplayText.cells("ＡＢ"), 4, "fullwidth forms")
        XCTAssertEqual(DisplayText.cells("e\u{301}"), 1, "a combining accent adds nothing")
        XCTAssertEqual(DisplayText.cells("☕🎵"), 4, "emoji shown as emoji")
        XCTAssertEqual(DisplayText.cells("👩‍🎤"), 2, "a ZWJ sequence is one emoji")
        XCTAssertEqual(DisplayText.cells("♥\u{FE0F}"), 2, "text symbol asked to be an emoji")
        XCTAssertEqual(DisplayText.cells("♥ é —"), 5)
        XCTAssertEqual(DisplayText.fit("東京事変の夜", 7), "東京事…", "never half a wide character")
        XCTAssertEqual(DisplayText.cells(DisplayText.fit("東京事変の夜", 6)), 5)
        XCTAssertEqual(DisplayText.padded("東京", 6), "東京  ")
        XCTAssertEqual(DisplayText.padded("東京", 6, alignedRight: true), "  東京")
        XCTAssertEqual(DisplayText.fit("Jack Johnson", 5), "Jack…")
    }

    private func screen(queue: Int = 7, current: Int = 2, failed: Set<Int> = []) -> PlayerScreen {
        var screen = PlayerScreen()
        let tracks = (0..<queue).map { i in
            var track = Track(trackId: 1000 + i, trackName: "Tone \(i + 1)", artistName: "The Sine Waves", collectionName: "Pure Tones")
            // Wide characters in the details and in the queue: each takes two cells.
            if i == 2 { track.collectionName = "東京の夜の長い長いアルバムの名前とその続きの続き" }
            if i == 3 { track.artistName = "東京事変と長い長いバンドの名前とその続きの続き" }
            track.releaseDate = "2005-01-01T12:00:00Z"
            track.trackPrice = 1.29
            track.currency = "USD"
            track.primaryGenreName = "Electronic"
            return track
        }
        screen.queue = QueueReport(index: current, items: tracks.enumerated().map {
            QueueItem(track: $0.element, id: $0.offset + 1, status: failed.contains($0.offset) ? .failed("HTTP 404") : .ok)
        })
        screen.status = StatusReport(state: .playing, index: current, positionMs: 12_000, durationMs: 30_000, queueLength: queue,
                                     track: tracks[current], error: nil, output: "ok")
        screen.positionMs = 12_000
        screen.durationMs = 30_000
        return screen
    }

    /// What a terminal shows of `line`: SGR sequences take no room.
    private func visible(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    func testTheVisibleTrackIdsAreTheQueueRowsOnScreen() {
        var s = screen(queue: 40, current: 20)
        let lines = s.lines(width: 80, height: 24).map(visible)
        let ids = s.visibleTrackIds(width: 80, height: 24)
        XCTAssertFalse(ids.isEmpty)
        XCTAssertTrue(ids.contains(1020), "the current item")
        for id in ids { XCTAssertTrue(lines.contains { $0.contains(" \(id - 1000) Tone \(id - 999)") }, "\(id) is on screen") }
        XCTAssertFalse(lines.contains { $0.contains(" \(ids.last! - 999) Tone \(ids.last! - 998)") }, "the row after the last is not")
        s.showsHelp = true
        XCTAssertEqual(s.visibleTrackIds(width: 80, height: 24), [], "the keys cover the queue")
    }

    func testThePlayerScreenFitsEverySizeFrom40By12() {
        var s = screen(failed: [4])
        s.artwork = PlayerScreen.Picture(lines: Array(repeating: String(repeating: "▀", count: 8), count: 4), width: 8)
        for (width, height) in [(40, 12), (50, 15), (80, 24), (200, 60)] {
            let lines = s.lines(width: width, height: height).map(visible)
            XCTAssertEqual(lines.count, height, "\(width)×\(height)")
            XCTAssertTrue(lines.allSatisfy { DisplayText.cells($0) <= width }, "\(width)×\(height):\n\(lines.joined(separator: "\n"))")
            XCTAssertTrue(lines[0].hasPrefix("▶ playing [3/7]"), lines[0])
            XCTAssertTrue(lines.contains { $0.contains("Tone 3") }, "the title at \(width)×\(height)")
            XCTAssertTrue(lines.last!.hasPrefix("space play/pause"))
        }
        let big = s.lines(width: 80, height: 24).map(visible)
        XCTAssertTrue(big.contains { $0.contains("0:12 ━") && $0.hasSuffix(" 0:30") }, big.joined(separator: "\n"))
        XCTAssertTrue(big.contains { $0.contains("released 2005-01-01 · Electronic · 1.29 USD") })
        XCTAssertTrue(big.contains { $0.contains("▶ 2 Tone 3") }, "the current item marked")
        XCTAssertTrue(big.contains { $0.contains("✗ 4 Tone 5 — The Sine Waves (failed)") }, "a failed item marked")
        s.status?.crossfade = 3
        XCTAssertTrue(visible(s.lines(width: 80, height: 24)[0]).contains("crossfade 3 s"), "the crossfade among the modes")
    }

    func testTheArtworkShrinksThenHidesBeforeTheText() {
        XCTAssertEqual(PlayerScreen.artworkColumns(width: 80, height: 24), 40)
        XCTAssertEqual(PlayerScreen.artworkColumns(width: 50, height: 15), 18)
        XCTAssertEqual(PlayerScreen.artworkColumns(width: 40, height: 12), 8)
        XCTAssertEqual(PlayerScreen.artworkColumns(width: 39, height: 12), 0)
        XCTAssertEqual(PlayerScreen.artworkColumns(width: 120, height: 8), 12)
    }

    func testThePromptMessageAndHelpTakeTheirPlaces() {
        var s = screen()
        s.prompt = "jack j"
        XCTAssertEqual(visible(s.lines(width: 60, height: 20).last!), "search: jack j▏")
        s.prompt = nil
        s.message = "opened with xdg-open"
        XCTAssertEqual(s.lines(width: 60, height: 20).last, "opened with xdg-open")
        s.message = "no such track \u{1B}]0;pwned\u{07}\u{202E}"
        XCTAssertFalse(s.lines(width: 60, height: 20).last!.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" },
                       "a message from the network cannot steer the terminal")
        s.message = nil
        s.showsHelp = true
        let help = s.lines(width: 100, height: 30).map(visible)
        XCTAssertTrue(help.contains { $0.hasPrefix("r                   repeat: off → all → one") }, help.joined(separator: "\n"))
        let small = s.lines(width: 60, height: 20).map(visible)
        XCTAssertTrue(small.contains { $0.contains("q                   quit") }, "two columns when the rows are few: \(small.joined(separator: "\n"))")
        XCTAssertTrue(small.allSatisfy { DisplayText.cells($0) <= 60 })
        XCTAssertFalse(help.contains { $0.contains("Tone 3") })
    }
}
