import PreviewCore
import XCTest

/// A `ControlResult` is written as its payload alone: the socket's answers stay byte for byte what
/// they were when the player handed over the report itself (previewctl and the scripts parse them).
final class ControlResultTests: XCTestCase {
    func testEachResultIsWrittenAsItsReport() {
        let track = Track(trackId: 7, trackName: "Seven")
        var status = StatusReport(state: .playing, index: 0, positionMs: 1200, durationMs: 30_000, queueLength: 1,
                                  track: track, error: nil, output: "pulse")
        status.volume = 80
        let queue = QueueReport(index: 0, items: [], version: 3)
        let share = ShareReport(track: track)
        let info = InfoReport(index: 0, track: track, error: nil, artist: nil, artistError: "the artist 5 was not found")
        XCTAssertEqual(ControlReply.success(id: 1, ControlResult.status(status)), ControlReply.success(id: 1, status))
        XCTAssertEqual(ControlReply.success(id: 2, ControlResult.queue(queue)), ControlReply.success(id: 2, queue))
        XCTAssertEqual(ControlReply.success(id: 3, ControlResult.share(share)), ControlReply.success(id: 3, share))
        XCTAssertEqual(ControlReply.success(id: 4, ControlResult.info(info)), ControlReply.success(id: 4, info))
        XCTAssertEqual(ControlReply.success(id: nil, ControlResult.hello(.current)), ControlReply.success(id: nil, HelloReport.current))
    }
}
