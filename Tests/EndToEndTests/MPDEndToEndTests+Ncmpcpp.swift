import Foundation
import PreviewTestSupport
import XCTest

/// ncmpcpp 0.9 in a tmux pane against previewd's MPD port, keys as a person types them.
extension MPDEndToEndTests {
    func testNcmpcppListsPlaysSkipsAndSearchesTheCatalog() throws {
        guard ProcessRunner.which("ncmpcpp") != nil else { throw XCTSkip("ncmpcpp is not installed (Debian: ncmpcpp)") }
        try start()
        try mpc("findadd", "artist", "The Sine Waves")
        let pane = try terminalClient("ncmpcpp -h 127.0.0.1 -p \(port)")
        pane.send("1")
        XCTAssertTrue(pane.waitFor("Playlist (7 items"), pane.capture())
        XCTAssertTrue(pane.waitFor("Brief Nine Ninety"), "the queue listed: \(pane.capture())")

        var mark = recorder.sampleCount
        pane.send("Down")
        pane.send("Enter")
        expectTone(660, after: mark, "Enter on the second song plays it")
        XCTAssertTrue(pane.waitFor("Playing: The Sine Waves"), pane.capture())
        mark = recorder.sampleCount
        pane.send(">")
        expectTone(880, after: mark, "> skips to the next")

        pane.send("3")
        XCTAssertTrue(pane.waitFor("Search engine"), pane.capture())
        for _ in 0..<20 { pane.send("Up") }
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("Any:"), "the field's prompt: \(pane.capture())")
        pane.send("square", literal: true)
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("Any          : square"), pane.capture())
        for _ in 0..<20 { pane.send("Down") }
        pane.send("Up")   // from Reset to Search
        pane.send("Enter")
        XCTAssertTrue(pane.waitFor("Found 2 songs"), "the catalog searched: \(pane.capture())")
        XCTAssertTrue(pane.capture().contains("Square Roots - Upside Sine"), pane.capture())
        XCTAssertEqual(try queue().items.count, 7, "searching queued nothing")
    }
}
