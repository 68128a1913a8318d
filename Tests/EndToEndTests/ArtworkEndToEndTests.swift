import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Artwork: fetched at 600×600 from the stand-in into the private cache, and drawn by
/// `previewctl status --art` / `info --art` in half blocks whose colours are the image's, where
/// the image has them. A broken or missing image leaves the text alone.
final class ArtworkEndToEndTests: SharedServerTestCase {
    /// previewctl's environment for drawing: colours forced (its stdout is a pipe here), a known size.
    private let drawing = ProcessInfo.processInfo.environment.filter { $0.key != "NO_COLOR" }.merging(
        ["CLICOLOR_FORCE": "1", "COLORTERM": "truecolor", "COLUMNS": "120", "LINES": "40"]) { $1 }

    /// The half-block cells of each line: (top pixel, bottom pixel) colours, left to right.
    private func cells(_ output: String) -> [[(top: [Int], bottom: [Int])]] {
        let cell = try! NSRegularExpression(pattern: "\u{1B}\\[38;2;(\\d+);(\\d+);(\\d+);48;2;(\\d+);(\\d+);(\\d+)m▀")
        return output.split(separator: "\n").map { line in
            let text = String(line)
            return cell.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                let n = (1...6).map { Int((text as NSString).substring(with: match.range(at: $0)))! }
                return (Array(n[0..<3]), Array(n[3..<6]))
            }
        }.filter { !$0.isEmpty }
    }

    private func near(_ pixel: [Int], _ expected: [Int], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(zip(pixel, expected).allSatisfy { abs($0 - $1) <= 24 }, "\(what): \(pixel), expected about \(expected)",
                      file: file, line: line)
    }

    func testStatusArtDrawsTheFetchedArtworkInItsColoursBesideTheText() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        // The artwork of the current track arrives in the cache folder (private) as the image itself.
        let file = try XCTUnwrap(try waitForStatus("status.artwork names the cached file") { $0.artwork != nil }.artwork,
                                 "status.artwork names the cached file")
        XCTAssertEqual(FileManager.default.contents(atPath: file),
                       FileManager.default.contents(atPath: Fixtures.directory.path + "/artwork/quadrants.jpg"),
                       "the 600×600 image (the stand-in serves no other size)")
        let folder = (file as NSString).deletingLastPathComponent
        XCTAssertTrue(folder.hasSuffix("/cache/previewd/artwork"), folder)
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o700, "the cache folder is private")

        let drawn = try daemon.ctl(["status", "--art"], environment: drawing)
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        XCTAssertTrue(drawn.stdout.contains("A Four Forty"), "the text is beside the picture: \(drawn.stdout)")
        let grid = cells(drawn.stdout)
        let rows = grid.count, columns = grid.first?.count ?? 0
        guard rows >= 4, columns >= 8, grid.allSatisfy({ $0.count == columns }) else {
            return XCTFail("a picture of \(columns)×\(rows) cells: \(drawn.stdout.debugDescription)")
        }
        XCTAssertEqual(columns, 2 * rows, "a square image: as many pixels down (two a cell) as across")
        near(grid[0][0].top, [255, 0, 0], "top left is red")
        near(grid[0][columns - 1].top, [0, 255, 0], "top right is lime")
        near(grid[rows - 1][0].bottom, [0, 0, 255], "bottom left is blue")
        near(grid[rows - 1][columns - 1].bottom, [255, 255, 255], "bottom right is white")
        let firstLine = String(drawn.stdout.split(separator: "\n")[0])
        XCTAssertTrue(firstLine.hasSuffix("\u{1B}[0m  " + firstLine.components(separatedBy: "\u{1B}[0m  ").last!), "colours reset before the text")

        // A PNG, drawn at its own shape (twice as wide as tall): yellow left, cyan right.
        let halves = cells(try daemon.ctl(["info", "1", "--art"], environment: drawing.merging(["COLUMNS": "400"]) { $1 }).stdout)
        let width = halves.first?.count ?? 0
        guard width > 0 else { return XCTFail("no picture of item 1's PNG") }
        XCTAssertEqual(width, 4 * halves.count, "a 2:1 image")
        near(halves[0][0].top, [255, 255, 0], "left half is yellow")
        near(halves[0][width - 1].top, [0, 255, 255], "right half is cyan")
    }

    func testNoArtworkABrokenOneOrNoColoursLeaveTheTextAlone() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        // 2: not an image at all; 3: a JPEG header and no picture; 4: not found at any size.
        for index in ["2", "3", "4"] {
            let result = try daemon.ctl(["info", index, "--art"], environment: drawing.merging(["COLUMNS": "400"]) { $1 })
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains("\u{1B}"), "item \(index): text alone, no escape codes")
            XCTAssertTrue(result.stdout.contains("title"), result.stdout)
        }
        let asked = try daemon.ctl(["--json", "info", "3"])
        XCTAssertEqual(asked.status, 0)
        // A terminal that asks for no colours, and output that is no terminal, get the text alone.
        for environment in [drawing.merging(["NO_COLOR": "1"]) { $1 }, ProcessInfo.processInfo.environment.filter { $0.key != "CLICOLOR_FORCE" }] {
            let plain = try daemon.ctl(["status", "--art"], environment: environment)
            XCTAssertEqual(plain.status, 0)
            XCTAssertFalse(plain.stdout.contains("\u{1B}"), plain.stdout)
        }
        XCTAssertTrue(daemon.isRunning)
    }
}
