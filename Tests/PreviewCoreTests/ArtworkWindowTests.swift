@testable import PreviewCore
import XCTest

/// `ArtworkWindow` alone: a path is kept only while its URL is in the window.
final class ArtworkWindowTests: XCTestCase {
    func testMovingTheWindowForgetsThePathsLeftBehind() {
        var artwork = ArtworkWindow()
        XCTAssertFalse(artwork.move(to: []))   // nothing to fetch
        XCTAssertTrue(artwork.move(to: ["a", "b"]))
        XCTAssertTrue(artwork.arrived("a", path: "/cache/a"))
        XCTAssertTrue(artwork.arrived("b", path: "/cache/b"))
        XCTAssertFalse(artwork.move(to: ["a", "b"]))
        XCTAssertTrue(artwork.move(to: ["b", "c"]))
        XCTAssertEqual(artwork.paths, ["b": "/cache/b"])
    }

    func testArtworkThatLeftTheWindowIsNotKept() {
        var artwork = ArtworkWindow()
        _ = artwork.move(to: ["a"])
        XCTAssertFalse(artwork.arrived("z", path: "/cache/z"))
        XCTAssertEqual(artwork.paths, [:])
    }

    func testWhatWasAnnouncedIsForgottenForANewTrack() {
        var artwork = ArtworkWindow()
        artwork.announce("/cache/a")
        XCTAssertEqual(artwork.announced, "/cache/a")
        artwork.announce(nil)
        XCTAssertNil(artwork.announced)
    }
}
