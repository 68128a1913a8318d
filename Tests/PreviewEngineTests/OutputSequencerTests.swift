import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The sequencing every output shares, driven through `MemoryOutput` (the test is the device
/// thread): gapless hand-over, drain, underrun and refill, skip, pause, position, loss and
/// restoration. Assertions are on frames, events and order, never on time. The onset and stop ramp is
/// off here, so frames are compared exactly; `RampTests` hear it.
final class OutputSequencerTests: XCTestCase {
    private var output: MemoryOutput!
    private var sequencer: OutputSequencer!
    private let events = Locked<[OutputEvent]>([])

    override func setUp() {
        output = MemoryOutput()
        sequencer = OutputSequencer(output: output, rampMilliseconds: 0)
        sequencer.setEventHandler { [events] event in events.withLock { $0.append(event) } }
    }

    private var heard: [OutputEvent] { events.withLock { $0 } }

    /// A feed of load `id` holding `values` (one mono frame each); finished unless `open`.
    private func feed(_ id: UInt64, _ values: [Float], open: Bool = false) -> PCMRing {
        let pcm = PCMRing(id: id, format: output.format, capacityFrames: 1024)
        write(values, to: pcm)
        if !open { pcm.finish() }
        return pcm
    }

    private func write(_ values: [Float], to pcm: PCMRing) {
        guard !values.isEmpty else { return }
        XCTAssertTrue(values.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: values.count) })
    }

    func testAnEnqueuedFeedFollowsADrainedOneInTheSamePull() {
        sequencer.play(feed(1, [1, 2, 3]), paused: false)
        sequencer.enqueue(feed(2, [10, 11, 12]))
        XCTAssertEqual(output.pull(5), [1, 2, 3, 10, 11])
        XCTAssertEqual(heard, [.drained(1), .started(2)])
        XCTAssertEqual(sequencer.currentFeed, 2)
        XCTAssertEqual(output.pull(5), [12])
        XCTAssertEqual(heard, [.drained(1), .started(2), .drained(2)])
        XCTAssertEqual(output.recorded.cancels, 0)
    }

    func testADrainIsReportedOnceAndALateEnqueueKicksTheDevice() {
        sequencer.play(feed(1, [1, 2]), paused: false)
        XCTAssertEqual(output.pull(2), [1, 2])
        XCTAssertTrue(heard.isEmpty, "the last frame pulled exactly: the drain is seen on the next pull")
        output.withLock { XCTAssertTrue(sequencer.expectsFrames) }
        XCTAssertEqual(output.pull(4), [])
        XCTAssertEqual(output.pull(4), [])
        XCTAssertEqual(heard, [.drained(1)])
        output.withLock { XCTAssertFalse(sequencer.expectsFrames) }
        let kicks = output.recorded.kicks
        sequencer.enqueue(feed(2, [5]))
        XCTAssertEqual(output.recorded.kicks, kicks + 1)
        XCTAssertEqual(output.pull(4), [5])
        XCTAssertEqual(heard, [.drained(1), .started(2), .drained(2)])
    }

    func testAFeedThatRunsDryReportsAnUnderrunAndItsProducerKicksTheDevice() {
        let pcm = feed(1, [], open: true)
        sequencer.play(pcm, paused: false)
        XCTAssertEqual(output.pull(4), [])
        XCTAssertTrue(heard.isEmpty, "nothing played yet: a slow start is not an underrun")
        var kicks = output.recorded.kicks
        write([1, 2], to: pcm)
        XCTAssertEqual(output.recorded.kicks, kicks + 1, "the producer's callback kicks the device")
        XCTAssertEqual(output.pull(4), [1, 2])
        XCTAssertEqual(heard, [.underrun(1)])
        output.withLock { XCTAssertFalse(sequencer.expectsFrames, "dry: no pull before the producer calls back") }
        kicks = output.recorded.kicks
        write([3], to: pcm)
        XCTAssertEqual(output.recorded.kicks, kicks + 1)
        XCTAssertEqual(output.pull(1), [3])
        XCTAssertEqual(heard, [.underrun(1), .refilled(1)])
        pcm.finish()
        XCTAssertEqual(output.pull(1), [])
        XCTAssertEqual(heard, [.underrun(1), .refilled(1), .drained(1)])
    }

    func testASkipCancelsTheDeviceOnlyWhenTheOldFeedHadNotDrained() {
        sequencer.play(feed(1, [1, 2, 3, 4]), paused: false)
        XCTAssertEqual(output.pull(2), [1, 2])
        sequencer.play(feed(2, [10, 11]), paused: false)
        XCTAssertEqual(output.recorded.cancels, 1, "a skip mid-feed drops what the device holds")
        XCTAssertEqual(output.pull(2), [10, 11])
        sequencer.play(feed(3, [20]), paused: false)
        XCTAssertEqual(output.recorded.cancels, 1, "after a drained feed its last frames still play: no cancel")
        XCTAssertEqual(output.pull(2), [20])
        XCTAssertEqual(sequencer.currentFeed, 3)
    }

    func testNothingIsPulledWhilePausedAndResumeGoesOn() {
        let pcm = feed(1, [1, 2, 3, 4])
        sequencer.play(pcm, paused: true)
        XCTAssertTrue(output.recorded.paused)
        XCTAssertEqual(output.pull(4), [])
        sequencer.resume()
        XCTAssertFalse(output.recorded.paused)
        XCTAssertEqual(output.pull(2), [1, 2])
        sequencer.pause()
        XCTAssertEqual(output.pull(2), [])
        sequencer.play(pcm, paused: false)   // the current feed again: only un-pauses
        XCTAssertEqual(output.pull(4), [3, 4])
        XCTAssertEqual(output.recorded.cancels, 0)
    }

    func testThePositionIsWhatWasTakenMinusTheDevicesDelay() {
        let values = (0..<100).map(Float.init)
        sequencer.play(feed(1, values), paused: false)
        XCTAssertNil(sequencer.currentFeedStartedAt)
        XCTAssertEqual(output.pull(60).count, 60)
        XCTAssertNotNil(sequencer.currentFeedStartedAt)
        output.setDelay(20)
        XCTAssertEqual(sequencer.playedFrames, 40)
        output.setDelay(80)
        XCTAssertEqual(sequencer.playedFrames, 40, "what was heard stays heard (a delay may catch up late)")
        output.setDelay(10)
        XCTAssertEqual(sequencer.playedFrames, 50)
        sequencer.stop()
        XCTAssertEqual(sequencer.playedFrames, 0)
        XCTAssertNil(sequencer.currentFeed)
        XCTAssertEqual(output.recorded.cancels, 1)
    }

    func testAStopAfterTheFeedEndedLetsTheDevicePlayItsLastFrames() {
        sequencer.play(feed(1, [1, 2, 3]), paused: false)
        XCTAssertEqual(output.pull(4), [1, 2, 3])
        output.setDelay(3)
        sequencer.stop()   // the queue's end
        XCTAssertEqual(output.recorded.cancels, 0, "the last frames are not cut")
        XCTAssertTrue(output.recorded.paused, "the device plays what it holds, then rests")
        XCTAssertNil(sequencer.currentFeed)
        output.playOut()
        XCTAssertEqual(output.recorded.written, [1, 2, 3])
        XCTAssertEqual(output.recorded.cancels, 1, "once heard, nothing is left to play later")

        // A feed that comes before the device has played out is not cut when it has.
        sequencer.play(feed(2, [4, 5, 6]), paused: false)
        XCTAssertEqual(output.pull(3), [4, 5, 6])
        output.setDelay(2)
        sequencer.stop()
        sequencer.play(feed(3, [7, 8]), paused: false)
        output.playOut()
        XCTAssertEqual(output.recorded.cancels, 1)
        XCTAssertEqual(output.pull(2), [7, 8])
    }

    func testALossIsReportedOnceWithWhatWasHeardAndTheRestorationAfterIt() {
        output.restore()   // a first connection: nothing to report
        sequencer.play(feed(1, (0..<100).map(Float.init)), paused: false)
        sequencer.enqueue(feed(2, [1]))
        XCTAssertEqual(output.pull(60).count, 60)
        output.setDelay(20)
        output.lose("gone")
        output.lose("still gone")
        XCTAssertEqual(heard, [.lost("gone", heardFrames: 40)])
        XCTAssertEqual(sequencer.statusText, "still gone")
        XCTAssertNil(sequencer.currentFeed)
        XCTAssertEqual(output.pull(4), [], "the feeds were dropped")
        output.restore()
        output.restore()
        XCTAssertEqual(heard, [.lost("gone", heardFrames: 40), .restored])
        XCTAssertEqual(sequencer.statusText, "ok")
    }

    func testAFadeStopsTheFeedsThenCallsBack() {
        sequencer.play(feed(1, [1, 2, 3]), paused: false)
        XCTAssertEqual(output.pull(1), [1])
        let faded = expectation(description: "faded")
        sequencer.fadeOutAndStop(milliseconds: 30) { faded.fulfill() }
        wait(for: [faded], timeout: Patience.seconds(10))
        XCTAssertNil(sequencer.currentFeed)
        XCTAssertTrue(output.recorded.paused)
        XCTAssertEqual(output.pull(2), [])
    }
}
