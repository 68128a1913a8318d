@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// FFmpeg's own JPEG and PNG decoders, scaled down with libswscale: the colours stay where they were.
final class ArtworkThumbnailTests: XCTestCase {
    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.directory.appendingPathComponent("artwork/" + name)))
    }

    private func assertNear(_ pixel: (r: UInt8, g: UInt8, b: UInt8), _ expected: [Int], _ what: String) {
        let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
        XCTAssertTrue(zip(got, expected).allSatisfy { abs($0 - $1) <= 24 }, "\(what): \(got), expected about \(expected)")
    }

    func testAJPEGIsScaledIntoTheBoxKeepingItsQuadrants() throws {
        let image = try ArtworkThumbnail.make(from: try fixture("quadrants.jpg"), fitting: 40, 20)
        XCTAssertEqual([image.width, image.height], [20, 20], "square, fitted to the shorter side")
        assertNear(image.pixel(2, 2), [255, 0, 0], "top left")
        assertNear(image.pixel(17, 2), [0, 255, 0], "top right")
        assertNear(image.pixel(2, 17), [0, 0, 255], "bottom left")
        assertNear(image.pixel(17, 17), [255, 255, 255], "bottom right")
    }

    func testAPNGKeepsItsShape() throws {
        let image = try ArtworkThumbnail.make(from: try fixture("halves.png"), fitting: 32, 32)
        XCTAssertEqual([image.width, image.height], [32, 16])
        assertNear(image.pixel(3, 8), [255, 255, 0], "left")
        assertNear(image.pixel(28, 8), [0, 255, 255], "right")
    }

    func testWhatIsNoPictureIsAnErrorNotACrash() throws {
        XCTAssertThrowsError(try ArtworkThumbnail.make(from: try fixture("broken.jpg"), fitting: 8, 8))
        XCTAssertThrowsError(try ArtworkThumbnail.make(from: try fixture("truncated.jpg"), fitting: 8, 8))
        XCTAssertThrowsError(try ArtworkThumbnail.make(from: Array(try fixture("quadrants.jpg").prefix(300)), fitting: 8, 8))
    }
}
