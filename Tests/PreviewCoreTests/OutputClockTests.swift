import PreviewCore
import XCTest

/// `OutputClock.elect`: which output paces the sequencer, from a written table.
final class OutputClockTests: XCTestCase {
    private typealias C = OutputClock.Candidate

    func testTheFirstEligibleDeviceOutputElseTheFirstEligibleElseTheCurrent() {
        let pipe = C(enabled: true, playsToDevice: false), card = C(enabled: true, playsToDevice: true)
        var off = card; off.enabled = false
        var lost = card; lost.reachable = false
        var otherRate = card; otherRate.takesSequencerFormat = false
        let rows: [(candidates: [C], current: Int, clock: Int, why: String)] = [
            ([card, pipe], 1, 0, "the first device output"),
            ([pipe, card], 0, 1, "a device output before a real-time one, whatever the order"),
            ([pipe, off], 1, 0, "no device output on: real time"),
            ([lost, card], 0, 1, "a lost one is passed over"),
            ([otherRate, pipe], 0, 1, "one that cannot take the sequencer's format cannot pace it"),
            ([off, lost], 1, 1, "none eligible: the current one plays on, silent"),
            ([card], 0, 0, "alone"),
        ]
        for row in rows { XCTAssertEqual(OutputClock.elect(row.candidates, current: row.current), row.clock, row.why) }
    }
}
