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
        XCTAssertEqual(output.setEnabled(nil, id: nil), [0])   // toggles
        XCTAssertFalse(output.enabled)
        XCTAssertTrue(output.silenced)
        XCTAssertEqual(output.setEnabled(false, id: nil), [])
        XCTAssertEqual(output.setEnabled(true, id: nil), [0])
        XCTAssertFalse(output.silenced)
        XCTAssertEqual(output.volume, 100)
    }

    /// Several outputs: each switched alone; silent only when every one is off; with no id, all
    /// at once (a toggle of all turns them all on when none is, else all off).
    func testEachOutputIsSwitchedOnItsOwn() {
        var output = OutputState()
        output.configure(outputs: 3)
        XCTAssertEqual(output.switches, [true, true, true])
        XCTAssertEqual(output.setEnabled(false, id: 1), [1])
        XCTAssertEqual(output.setEnabled(nil, id: 1), [1], "toggled back")
        XCTAssertEqual(output.setEnabled(false, id: 0), [0])
        XCTAssertFalse(output.silenced, "two still sound")
        XCTAssertEqual(output.setEnabled(nil, id: nil), [1, 2], "some on: a toggle of all turns them off")
        XCTAssertTrue(output.silenced)
        XCTAssertEqual(output.setEnabled(nil, id: nil), [0, 1, 2])
        XCTAssertEqual(output.switches, [true, true, true])
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
