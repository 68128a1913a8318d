@testable import PreviewCore
import XCTest

/// `OutputState` alone: volume, mute and enable change only when they change, and a loss keeps
/// where the sound stopped until the output is back.
final class OutputStateTests: XCTestCase {
    func testVolumeAndMuteChangeOnlyWhenDifferent() {
        var output = OutputState()
        XCTAssertFalse(output.setVolume(100, muted: false))
        XCTAssertTrue(output.setVolume(40, muted: false))
        XCTAssertTrue(output.setVolume(40, muted: true))
        XCTAssertEqual(output.volume, 40)
        XCTAssertTrue(output.muted)
        XCTAssertTrue(output.silenced)
    }

    func testDisabledIsSilentWithItsVolumeKept() {
        var output = OutputState()
        XCTAssertTrue(output.setEnabled(nil))   // toggles
        XCTAssertFalse(output.enabled)
        XCTAssertTrue(output.silenced)
        XCTAssertFalse(output.setEnabled(false))
        XCTAssertTrue(output.setEnabled(true))
        XCTAssertFalse(output.silenced)
        XCTAssertEqual(output.volume, 100)
    }

    func testCrossfadeChangesOnce() {
        var output = OutputState()
        XCTAssertFalse(output.setCrossfade(0))
        XCTAssertTrue(output.setCrossfade(5))
        XCTAssertFalse(output.setCrossfade(5))
        XCTAssertEqual(output.crossfadeSeconds, 5)
    }

    func testALossKeepsWhereTheSoundStoppedUntilTheOutputIsBack() {
        var output = OutputState()
        output.play(7)
        output.lost(heardMs: 700, startMs: 10_000)
        XCTAssertNil(output.playing)
        XCTAssertEqual(output.heardAtLossMs, 10_700)
        XCTAssertEqual(output.back(), 10_700)
        XCTAssertNil(output.heardAtLossMs)
        XCTAssertEqual(output.back(), 0)   // back without a loss: from the start
    }
}
