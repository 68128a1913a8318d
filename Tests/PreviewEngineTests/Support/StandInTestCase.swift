import Foundation
import ITunesStandIn
import PreviewCore
import PreviewEngine
import PreviewTestSupport
import XCTest

/// A test case with the iTunes stand-in running on loopback for each test.
class StandInTestCase: XCTestCase {
    var server: StandInServer!

    override func setUpWithError() throws {
        server = StandInServer(catalogFile: Fixtures.catalog, previewsDirectory: Fixtures.directory.appendingPathComponent("previews"))
        try server.start()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    /// The stand-in's `host:port`, the one local origin fetchers here may use.
    var origin: String { PreviewURLPolicy.origin(of: server.baseURL)! }

    /// Waits for `bytes` to complete or fail, at most `seconds` times the patience (a hang guard, not
    /// a speed check).
    func waitUntilSettled(_ bytes: PreviewBytes, seconds: TimeInterval = 20) {
        eventually(timeout: seconds) { bytes.isComplete || bytes.error != nil }
    }
}
