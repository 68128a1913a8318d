import Foundation
import PreviewCore
import XCTest

/// Where artwork comes from, what counts as an image, and how a picture is drawn in half blocks.
final class ArtworkTests: XCTestCase {
    func testApplesArtworkIsAskedFor600PixelsFirstAndOtherURLsAsGiven() {
        let apple = "https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/ae/source/100x100bb.jpg"
        XCTAssertEqual(ArtworkSource.candidates(for: apple),
                       ["https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/ae/source/600x600bb.jpg", apple])
        XCTAssertEqual(ArtworkSource.candidates(for: "https://example.com/a/60x60cc.png"),
                       ["https://example.com/a/600x600cc.jpg", "https://example.com/a/60x60cc.png"])
        XCTAssertEqual(ArtworkSource.candidates(for: "https://example.com/a/600x600bb.jpg"), ["https://example.com/a/600x600bb.jpg"])
        XCTAssertEqual(ArtworkSource.candidates(for: "https://example.com/cover.png"), ["https://example.com/cover.png"])
        XCTAssertEqual(ArtworkSource.candidates(for: "https://example.com/100x100bb.gif"), ["https://example.com/100x100bb.gif"])
        XCTAssertEqual(ArtworkSource.candidates(for: "file:///etc/passwd"), [], "only http(s)")
    }

    func testOnlyJPEGAndPNGSignaturesAreImages() {
        XCTAssertEqual(ArtworkSource.kind(of: [0xFF, 0xD8, 0xFF, 0xE0, 0]), .jpeg)
        XCTAssertEqual(ArtworkSource.kind(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]), .png)
        XCTAssertNil(ArtworkSource.kind(of: Array("<html>".utf8)))
        XCTAssertNil(ArtworkSource.kind(of: [0xFF, 0xD8]))
    }

    func testColoursAreDrawnOnlyWhereTheTerminalCanShowThem() {
        let tty = ["TERM": "xterm-256color"]
        XCTAssertEqual(HalfBlockImage.colors(environment: tty.merging(["COLORTERM": "truecolor"]) { $1 }, isTerminal: true), .truecolor)
        XCTAssertEqual(HalfBlockImage.colors(environment: tty, isTerminal: true), .palette256)
        XCTAssertNil(HalfBlockImage.colors(environment: ["TERM": "xterm"], isTerminal: true), "16 colours: text alone")
        XCTAssertNil(HalfBlockImage.colors(environment: ["TERM": "dumb", "COLORTERM": "truecolor"], isTerminal: true))
        XCTAssertNil(HalfBlockImage.colors(environment: tty, isTerminal: false), "a pipe gets text")
        XCTAssertNil(HalfBlockImage.colors(environment: tty.merging(["NO_COLOR": "1"]) { $1 }, isTerminal: true))
        XCTAssertEqual(HalfBlockImage.colors(environment: ["CLICOLOR_FORCE": "1"], isTerminal: false), .truecolor)
    }

    func testEachCellIsTwoPixelsStackedInTheirPlaces() {
        // 2 × 3 pixels: red, green / blue, white / black, yellow (an odd last row).
        let image = ArtworkReport(width: 2, height: 3, rgb: [255, 0, 0, 0, 255, 0,
                                                             0, 0, 255, 255, 255, 255,
                                                             0, 0, 0, 255, 255, 0])
        XCTAssertEqual(HalfBlockImage.lines(image, colors: .truecolor), [
            "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[38;2;0;255;0;48;2;255;255;255m▀\u{1B}[0m",
            "\u{1B}[0;38;2;0;0;0m▀\u{1B}[0;38;2;255;255;0m▀\u{1B}[0m",
        ])
        XCTAssertEqual(HalfBlockImage.lines(image, colors: .palette256)[0],
                       "\u{1B}[38;5;196;48;5;21m▀\u{1B}[38;5;46;48;5;231m▀\u{1B}[0m", "the 6×6×6 cube's red, blue, green, white")
        XCTAssertEqual(HalfBlockImage.beside(["AB"], width: 2, ["one", "two"]), ["AB  one", "    two"])
    }

    func testAThumbnailSurvivesTheWireAndABadOneIsRefused() throws {
        let image = ArtworkReport(width: 2, height: 1, rgb: [1, 2, 3, 4, 5, 6])
        let decoded = try JSONDecoder().decode(ArtworkReport.self, from: JSONEncoder().encode(image))
        XCTAssertEqual(decoded, image)
        XCTAssertThrowsError(try JSONDecoder().decode(ArtworkReport.self, from: Data(#"{"width":3,"height":1,"rgb":"AQID"}"#.utf8)))
        XCTAssertThrowsError(try ControlCommand(ControlRequest(id: 1, cmd: "artwork", args: ["width": .number(0)])))
        XCTAssertEqual(try ControlCommand(ControlRequest(id: 1, cmd: "artwork", args: ["index": .number(2), "width": .number(24)])),
                       .artwork(.index(2), width: 24, height: 32))
    }
}
