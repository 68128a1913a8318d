import Foundation
import PreviewTestSupport
import XCTest

/// The core cases again on a real PipeWire (pipewire, wireplumber and pipewire-pulse on a private
/// session bus), which previewd reaches through its PulseAudio client as on most desktops today.
final class PipeWireEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (PlaybackEndToEndTests run the same PulseOutput)
    /// One PipeWire for the class (it takes a second or two to start), or why it could not start.
    nonisolated(unsafe) private static var pipeWire: Result<PipeWireServer, Error>?

    override class func setUp() {
        super.setUp()
        pipeWire = Result { try PipeWireServer() }
    }

    override class func tearDown() {
        if case .success(let server) = pipeWire { server.stop() }
        pipeWire = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        switch Self.pipeWire {
        case .success(let server): pulseServer = server.address
        case .failure(let error): throw XCTSkip("PipeWire cannot start on this machine, so its cases are skipped: \(error)")
        case nil: throw XCTSkip("PipeWire was not started")
        }
        try super.setUpWithError()
        try startOnSharedServer()
    }

    func testPlayNextPausePrevOnPipeWire() throws {
        try checkSearchNextPauseResumePrev()
    }

    func testGaplessAdvanceOnPipeWire() throws {
        try checkGaplessAdvance()
    }

    func testVolumeAndMuteOnPipeWire() throws {
        try checkVolumeMuteAndRepeatOne()
    }
}
