import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The short ramp every onset and stop takes (`OutputSequencer+Ramp.swift`), as heard on the
/// in-memory device: the first 10 ms of a start, a pause, a resume and a skip. What the device held
/// unheard at a stop is dropped from what it heard (`MemoryOutput.cancel`), so `heard` is exactly
/// what a listener gets. Checks are on samples: no step between frames larger than the ramp's, and
/// the full level (or silence) reached within the ramp's length.
final class RampTests: XCTestCase {
    private var output: MemoryOutput!
    private var sequencer: OutputSequencer!
    private var ramp: Int { output.format.frames(milliseconds: OutputSequencer.rampMilliseconds) }
    private var tenMs: Int { output.format.frames(milliseconds: 10) }

    override func setUp() {
        output = MemoryOutput()
        sequencer = OutputSequencer(output: output)
    }

    private var heard: [Float] { output.recorded.written }

    /// A finished feed of `frames` frames: `value(i)` for frame i; it keeps 100 ms read for rewinds.
    private func feed(_ id: UInt64, frames: Int = 48_000, _ value: (Int) -> Float) -> PCMRing {
        let pcm = PCMRing(id: id, format: output.format, capacityFrames: frames + 4_800, historyFrames: 4_800)
        let values = (0..<frames).map(value)
        XCTAssertTrue(values.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: frames) })
        pcm.finish()
        return pcm
    }

    /// The largest step between two neighbouring samples of `samples`.
    private func largestStep(_ samples: ArraySlice<Float>) -> Float {
        zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 0
    }

    func testTheRampIsAFewMilliseconds() {
        XCTAssertEqual(ramp, 144, "3 ms at 48 kHz")
    }

    func testAStartFadesInOverTheRampAndNoLonger() {
        sequencer.play(feed(1) { _ in 0.5 }, paused: false)
        output.pull(tenMs)
        let first = heard.prefix(tenMs)
        XCTAssertEqual(first.count, tenMs)
        XCTAssertLessThanOrEqual(first.first!, 0.5 / Float(ramp) + 1e-6, "the first frame is the ramp's first step")
        XCTAssertLessThanOrEqual(largestStep(first), 0.5 / Float(ramp) + 1e-6)
        XCTAssertEqual(first[ramp - 1], 0.5, accuracy: 1e-6, "the full level at the ramp's last frame")
        XCTAssertTrue(first.dropFirst(ramp).allSatisfy { $0 == 0.5 }, "and there it stays")
    }

    func testAPauseFadesOutFromWhatWasHeardAndAResumeFadesInFromThere() {
        let slope: (Int) -> Float = { 0.25 + Float($0) * 1e-6 }   // each frame's value says which it is
        sequencer.play(feed(1, slope), paused: false)
        output.pull(tenMs * 2)
        output.setDelay(tenMs)   // the device holds 10 ms it has not played
        sequencer.pause()
        XCTAssertFalse(output.recorded.paused, "the device plays the fade before it pauses")
        output.pull(tenMs)
        XCTAssertTrue(output.recorded.paused, "the fade's end pauses the device")
        let atPause = heard
        XCTAssertEqual(atPause.count, tenMs + ramp, "10 ms heard, then the fade, then nothing")
        let fade = atPause.suffix(ramp + 1)   // from the last frame heard at full level
        XCTAssertLessThanOrEqual(largestStep(fade), 0.3 / Float(ramp) + 1e-5, "no step in the fade-out")
        XCTAssertEqual(fade.dropFirst().first!, slope(tenMs) * Float(ramp - 1) / Float(ramp), accuracy: 1e-6,
                       "the fade continues from the first frame not heard")
        XCTAssertEqual(fade.last!, 0, "silence within the ramp")
        XCTAssertTrue(output.pull(tenMs).isEmpty, "nothing more while paused")

        sequencer.resume()
        output.pull(tenMs)
        let resumed = heard.suffix(from: atPause.count)
        XCTAssertEqual(resumed.first!, slope(tenMs) / Float(ramp), accuracy: 1e-6, "it resumes where the pause faded out")
        XCTAssertLessThanOrEqual(largestStep(resumed), 0.3 / Float(ramp) + 1e-5, "no step in the fade-in")
        XCTAssertEqual(resumed[resumed.startIndex + ramp - 1], slope(tenMs + ramp - 1), accuracy: 1e-6,
                       "the full level within the ramp")
    }

    func testASkipCrossfadesFromTheOldFeedToTheNewOneWithinTheRamp() {
        sequencer.play(feed(1) { _ in 0.5 }, paused: false)
        output.pull(tenMs * 2)
        output.setDelay(tenMs)
        let before = heard.count - tenMs   // what the skip leaves heard
        sequencer.play(feed(2) { _ in -0.5 }, paused: false)
        output.pull(tenMs)
        let skip = heard.suffix(from: before - 1)   // from the last frame of the old feed heard alone
        XCTAssertEqual(skip.first!, 0.5)
        XCTAssertLessThanOrEqual(largestStep(skip), 1.0 / Float(ramp) + 1e-6, "no step beyond the two ramps' together")
        XCTAssertEqual(heard[before + ramp - 1], -0.5, accuracy: 1e-6, "the new feed alone, at full level, at the ramp's last frame")
        XCTAssertTrue(heard.suffix(from: before + ramp).allSatisfy { $0 == -0.5 })
        XCTAssertEqual(heard.count, before + tenMs, "the crossfade takes no time of its own")
    }

    func testAStopAndTheFadeAtExitEndInSilenceThenCallBack() {
        sequencer.play(feed(1) { _ in 0.5 }, paused: false)
        output.pull(tenMs)
        let faded = expectation(description: "faded")
        sequencer.fadeOutAndStop(milliseconds: 30) { faded.fulfill() }
        output.pull(tenMs * 4)
        wait(for: [faded], timeout: Patience.seconds(10))
        let fade = heard.suffix(from: tenMs - 1)
        XCTAssertEqual(fade.count, output.format.frames(milliseconds: 30) + 1)
        XCTAssertLessThanOrEqual(largestStep(fade), 0.5 / Float(output.format.frames(milliseconds: 30)) + 1e-6)
        XCTAssertEqual(fade.last!, 0)
        XCTAssertNil(sequencer.currentFeed)
        XCTAssertTrue(output.recorded.paused)
    }
}
