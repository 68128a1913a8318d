import PreviewCore
@testable import PreviewEngine
import XCTest

/// The crossfade between consecutive feeds (`OutputSequencer+Crossfade.swift`), on the in-memory
/// device: where the overlap begins and ends, the equal-power curves, the events, short tracks, no
/// follower, a follower late with its audio, a stream whose length is stated before it finishes,
/// and a pause, a skip and a device that drops what it held in the middle of a fade (no step beyond
/// the ramp's). The 10 ms crossfade here is 480 frames at 48 kHz.
final class CrossfadeTests: XCTestCase {
    private var output: MemoryOutput!
    private var sequencer: OutputSequencer!
    private let events = Locked<[OutputEvent]>([])
    private let overlap = 480

    private func make(ramp: Int) {
        output = MemoryOutput()
        events.withLock { $0 = [] }
        sequencer = OutputSequencer(output: output, rampMilliseconds: ramp)
        sequencer.setEventHandler { [events] event in events.withLock { $0.append(event) } }
        sequencer.setCrossfade(milliseconds: 10)
    }

    private var heard: [OutputEvent] { events.withLock { $0 } }

    /// A feed of `frames` frames of `value`; finished unless `open` (then its length is stated).
    private func feed(_ id: UInt64, frames: Int, _ value: Float, open: Bool = false) -> PCMRing {
        let pcm = PCMRing(id: id, format: output.format, capacityFrames: frames + 4_800, historyFrames: 4_800)
        let values = [Float](repeating: value, count: frames)
        XCTAssertTrue(values.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: frames) })
        if open { pcm.expect(frames: frames) } else { pcm.finish() }
        return pcm
    }

    /// Frame `k` of an overlap of `length` frames from `old` (level) into `new`.
    private func mixed(_ k: Int, of length: Int, _ old: Float, _ new: Float) -> Float {
        let angle = Float(k) * .pi / 2 / Float(length)
        return old * cosf(angle) + new * sinf(angle)
    }

    func testTheNextFeedRisesUnderTheLastFramesOfTheFirstAtEqualPower() {
        make(ramp: 0)
        sequencer.play(feed(1, frames: 2_000, 0.5), paused: false)
        sequencer.enqueue(feed(2, frames: 2_000, 0.25))
        let all = output.pull(5_000)
        XCTAssertEqual(all.count, 4_000 - overlap, "the two overlap by the crossfade")
        XCTAssertTrue(all.prefix(2_000 - overlap).allSatisfy { $0 == 0.5 }, "the first alone until the fade")
        for k in 0..<overlap {
            XCTAssertEqual(all[2_000 - overlap + k], mixed(k, of: overlap, 0.5, 0.25), accuracy: 1e-5, "frame \(k) of the fade")
        }
        XCTAssertTrue(all.suffix(2_000 - overlap).allSatisfy { $0 == 0.25 }, "the second alone after it")
        // Equal power: cos² + sin² = 1 at every frame (the levels of two unrelated sounds add so).
        for k in stride(from: 0, to: overlap, by: 37) {
            let angle = Float(k) * .pi / 2 / Float(overlap)
            XCTAssertEqual(cosf(angle) * cosf(angle) + sinf(angle) * sinf(angle), 1, accuracy: 1e-5)
        }
        XCTAssertEqual(heard, [.fading(1), .drained(1), .started(2), .faded(1), .drained(2)])
        XCTAssertEqual(sequencer.currentFeed, 2, "the second is current from the fade's start")
    }

    func testNoCrossfadeIsTheGaplessJoinAndNoFollowerIsAPlainEnd() {
        make(ramp: 0)
        sequencer.setCrossfade(milliseconds: 0)
        sequencer.play(feed(1, frames: 1_000, 0.5), paused: false)
        sequencer.enqueue(feed(2, frames: 1_000, 0.25))
        let all = output.pull(3_000)
        XCTAssertEqual(all, [Float](repeating: 0.5, count: 1_000) + [Float](repeating: 0.25, count: 1_000))
        XCTAssertEqual(heard, [.drained(1), .started(2), .drained(2)])

        make(ramp: 0)
        sequencer.play(feed(3, frames: 1_000, 0.5), paused: false)
        XCTAssertEqual(output.pull(3_000), [Float](repeating: 0.5, count: 1_000), "nothing after it: no fade")
        XCTAssertEqual(heard, [.drained(3)])
    }

    func testShortTracksOverlapByHalfTheShorter() {
        make(ramp: 0)
        sequencer.play(feed(1, frames: 600, 0.5), paused: false)
        sequencer.enqueue(feed(2, frames: 2_000, 0.25))
        let all = output.pull(5_000)
        XCTAssertEqual(all.count, 2_600 - 300, "half of the first's 600 frames")
        XCTAssertEqual(all[299], 0.5)
        XCTAssertEqual(all[300], 0.5, accuracy: 1e-6, "the fade's first frame: all of the old one")

        make(ramp: 0)
        sequencer.play(feed(3, frames: 2_000, 0.5), paused: false)
        sequencer.enqueue(feed(4, frames: 400, 0.25))
        XCTAssertEqual(output.pull(5_000).count, 2_400 - 200, "half of the second's 400 frames")
    }

    func testAFollowerWithNoAudioYetJoinsLaterOverAShorterOverlap() {
        make(ramp: 0)
        sequencer.play(feed(1, frames: 2_000, 0.5), paused: false)
        let late = PCMRing(id: 2, format: output.format, capacityFrames: 8_000, historyFrames: 100)
        sequencer.enqueue(late)
        XCTAssertEqual(output.pull(1_800).count, 1_800, "the first plays on alone")
        XCTAssertFalse(heard.contains(.fading(1)))
        let values = [Float](repeating: 0.25, count: 1_000)
        XCTAssertTrue(values.withUnsafeBufferPointer { late.write($0.baseAddress!, frames: 1_000) })
        late.finish()
        let rest = output.pull(2_000)
        XCTAssertEqual(rest.count, 1_000, "the last 200 frames of the first under the second")
        XCTAssertEqual(rest[0], 0.5, accuracy: 1e-6)
        XCTAssertEqual(heard.prefix(3), [.fading(1), .drained(1), .started(2)])
    }

    func testAStatedLengthStartsTheFadeBeforeTheDecoderFinishes() {
        make(ramp: 0)
        let first = feed(1, frames: 2_000, 0.5, open: true)
        sequencer.play(first, paused: false)
        sequencer.enqueue(feed(2, frames: 2_000, 0.25))
        XCTAssertEqual(output.pull(2_000 - overlap).count, 2_000 - overlap)
        XCTAssertEqual(output.pull(10).first!, 0.5, accuracy: 1e-6)
        XCTAssertEqual(heard.prefix(3), [.fading(1), .drained(1), .started(2)], "faded on the stated length")
        first.finish()
        XCTAssertEqual(output.pull(5_000).count, 2_000 - 10)
    }

    /// The largest step between two neighbouring samples.
    private func largestStep(_ samples: [Float]) -> Float {
        zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 0
    }

    func testAPauseInTheFadeFadesBothOutAndTheResumeGoesOnWithBoth() {
        make(ramp: 3)   // the 144-frame ramp: a step of at most 0.5 / 144 between frames
        sequencer.setCrossfade(milliseconds: 100)   // 4,800 frames
        sequencer.play(feed(1, frames: 20_000, 0.5), paused: false)
        sequencer.enqueue(feed(2, frames: 20_000, 0.5))
        output.pull(20_000 - 4_800 + 2_000)   // 2,000 frames into the fade
        output.setDelay(500)
        sequencer.pause()
        output.pull(1_000)
        XCTAssertTrue(output.recorded.paused)
        XCTAssertEqual(output.recorded.written.last!, 0, accuracy: 0.01, "silent at the pause's end")
        let before = output.recorded.written.count
        sequencer.resume()
        output.pull(40_000)
        let all = output.recorded.written
        XCTAssertLessThan(largestStep(all), 0.5 / 144 * 1.5 + 0.002, "no click at the pause, the resume or the fade")
        // Both go on from where the pause faded them: the fade's 2,800 frames left, then the second.
        XCTAssertEqual(all.count - before, 20_000 - 1_500 - 144 + 144, accuracy: 200)
        XCTAssertTrue(heard.contains(.faded(1)))
        XCTAssertEqual(all.last!, 0.5, accuracy: 1e-6)
    }

    func testASkipInTheFadeRampsBothOutAndTheOldOneIsLetGo() {
        make(ramp: 3)
        sequencer.setCrossfade(milliseconds: 100)
        sequencer.play(feed(1, frames: 20_000, 0.5), paused: false)
        sequencer.enqueue(feed(2, frames: 20_000, 0.5))
        output.pull(20_000 - 4_800 + 2_000)
        output.setDelay(700)
        sequencer.play(feed(3, frames: 20_000, 0.5), paused: false)
        output.pull(5_000)
        XCTAssertTrue(heard.contains(.faded(1)), "the old one goes once the skip's ramp is over")
        XCTAssertLessThan(largestStep(output.recorded.written), 0.5 / 144 * 2 + 0.002, "the skip's ramp, no click")
        output.withLock { XCTAssertNil(sequencer.machine.overlap) }
    }

    func testAStopInTheFadeLetsTheOldOneGo() {
        make(ramp: 0)
        sequencer.play(feed(1, frames: 2_000, 0.5), paused: false)
        sequencer.enqueue(feed(2, frames: 2_000, 0.25))
        output.pull(2_000 - overlap + 100)
        sequencer.stop()
        XCTAssertEqual(heard, [.fading(1), .drained(1), .started(2), .faded(1)])
    }
}
