import PreviewCore
import XCTest

/// Which hosts previewd connects to ahead of need.
final class WarmPathsCoreTests: XCTestCase {
    func testApplesAPIWarmsApplesPreviewAndArtworkCDNs() {
        let origins = WarmPathsCore(apiBase: "https://itunes.apple.com")
        XCTAssertEqual(origins.api, "https://itunes.apple.com:443")
        XCTAssertEqual(origins.previewToWarm, "https://audio-ssl.itunes.apple.com:443")
        XCTAssertEqual(origins.artwork, "https://is1-ssl.mzstatic.com:443")
    }

    func testAnotherAPIServesItsOwnPreviewsSoNothingMoreIsWarmed() {
        let origins = WarmPathsCore(apiBase: "http://127.0.0.1:8080/")
        XCTAssertEqual(origins.preview, "http://127.0.0.1:8080")
        XCTAssertNil(origins.previewToWarm, "the catalog call opens that connection itself")
    }

    func testThePreviewHostOptionComesFirstUntilResultsSayOtherwise() {
        var origins = WarmPathsCore(apiBase: "https://itunes.apple.com", previewHost: "https://198.51.100.1")
        XCTAssertEqual(origins.previewToWarm, "https://198.51.100.1:443")
        origins.learn(from: [Track(trackId: 1, previewUrl: "https://a.example/1.m4a"),
                             Track(trackId: 2, previewUrl: "https://b.example:8443/2.m4a"),
                             Track(trackId: 3, previewUrl: "https://b.example:8443/3.m4a"),
                             Track(trackId: 4, previewUrl: "file:///etc/passwd")])
        XCTAssertEqual(origins.previewToWarm, "https://b.example:8443", "the host most of the last results use")
        origins.learn(from: [Track(trackId: 5)])
        XCTAssertEqual(origins.previewToWarm, "https://b.example:8443", "results without previews change nothing")
    }

    func testOnlyHTTPAndHTTPSHaveAnOrigin() {
        XCTAssertEqual(WarmPathsCore.origin(of: "HTTPS://Audio.Example/x"), "https://audio.example:443")
        XCTAssertEqual(WarmPathsCore.origin(of: "http://[::1]:81/"), "http://[::1]:81")
        XCTAssertNil(WarmPathsCore.origin(of: "ftp://x/"))
        XCTAssertNil(WarmPathsCore.origin(of: "https://evil\u{7F}.example/"))
    }
}
