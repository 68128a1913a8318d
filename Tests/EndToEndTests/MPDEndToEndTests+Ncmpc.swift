import Foundation
import PreviewTestSupport
import XCTest

/// ncmpc 0.47 (Debian's) in a tmux pane against previewd's MPD socket, keys as a person types them:
/// a title search and a filename search, add, the outputs page (its partitions too), the crossfade
/// key, and the saved lists (save the queue, load it, delete it).
extension MPDEndToEndTests {
    func testNcmpcSearchesAddsTogglesTheOutputAndEditsSavedLists() throws {
        guard ProcessRunner.which("ncmpc") != nil else { throw XCTSkip("ncmpc is not installed (Debian: ncmpc)") }
        try start()
        let pane = try terminalClient("ncmpc --host=\(TerminalPane.quoted(mpdSocket))")
        XCTAssertTrue(pane.waitFor("5:Search"), pane.capture())

        // The search screen: F5 asks, Enter searches by title (the mode ncmpc starts in).
        pane.send("5")
        pane.send("F5")
        XCTAssertTrue(pane.waitFor("Search:"), pane.capture())
        pane.send("sine", literal: true)
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("Square Roots - Upside Sine"), "the catalog searched by title: \(pane.capture())")
        XCTAssertTrue(try queue().items.isEmpty, "searching queued nothing")
        pane.send("a")
        try waitFor("a appends the song") { try queue().items.map { $0.track.trackId ?? 0 } == [2003] }
        // Filename mode sends `search file`: answered (nothing), no error line.
        for _ in 0..<3 { pane.send("m") }
        XCTAssertTrue(pane.waitFor("Search mode: Filename"), pane.capture())
        pane.send("F5")
        pane.send("tone", literal: true)
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("[Filename]"), pane.capture())
        XCTAssertFalse(pane.capture().contains("unknown command"), pane.capture())

        // The outputs page: previewd's one output (named after its value, MPD's plugin name); Enter makes it silent, Enter again sounds.
        pane.send("8")
        XCTAssertTrue(pane.waitFor("[X] pulse"), pane.capture())
        XCTAssertFalse(pane.capture().contains("unknown command"), "its listpartitions is answered: \(pane.capture())")
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("[ ] pulse"), pane.capture())
        XCTAssertFalse(try status().outputEnabled)
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("[X] pulse"), pane.capture())
        XCTAssertTrue(try status().outputEnabled)
        // The crossfade key toggles `crossfade 10` (its default crossfade-time) and `crossfade 0`.
        pane.send("x")
        try waitForStatus(timeout: 15, "x sets ncmpc's crossfade time") { $0.crossfade == 10 }
        pane.send("x")
        try waitForStatus(timeout: 15, "x again turns it off") { $0.crossfade == 0 }

        // Saved lists: S saves the queue, the browser lists it, Enter loads it, d deletes it.
        pane.send("2")
        pane.send("S")
        XCTAssertTrue(pane.waitFor("Save queue as:"), pane.capture())
        pane.send("from ncmpc", literal: true)
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("Saved from ncmpc"), pane.capture())
        pane.send("3")
        XCTAssertTrue(pane.waitFor("from ncmpc"), "the browser lists it (lsinfo with Last-Modified): \(pane.capture())")
        pane.send("Enter")
        try waitFor("Enter loads it") { try queue().items.count == 2 }
        pane.send("d")
        XCTAssertTrue(pane.waitFor("Delete playlist from ncmpc?"), pane.capture())
        pane.send("y")
        XCTAssertTrue(pane.waitFor("Playlist deleted"), pane.capture())
        XCTAssertFalse(try daemon.ctl("lists").stdout.contains("from ncmpc"), "previewd's own saved list is gone")
    }
}
