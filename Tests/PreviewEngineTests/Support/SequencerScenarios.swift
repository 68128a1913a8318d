import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// What a listener heard of an output, one mono sample per frame: the in-memory device's pulls,
/// a PulseAudio sink's monitor, a FIFO's reader (`MonitorRecorder`).
protocol Heard: AnyObject {
    var sampleCount: Int { get }
    func samples(in range: Range<Int>) -> [Float]
}

extension MonitorRecorder: Heard {}

/// An output under test: the shared sequencer over it, and what its listener heard.
struct OutputRig {
    let sequencer: OutputSequencer
    let heard: Heard
    let events = Locked<[OutputEvent]>([])
    let close: () -> Void

    init(sequencer: OutputSequencer, heard: Heard, close: @escaping () -> Void) {
        (self.sequencer, self.heard, self.close) = (sequencer, heard, close)
        sequencer.setEventHandler { [events] event in events.withLock { $0.append(event) } }
    }
}

/// The sequencing every output gets, as a listener hears it: run over the in-memory device, over
/// PulseAudio and over a FIFO by `OutputScenarioTests`. Feeds are constant levels (+0.5, −0.5), so
/// each heard sample says whose it is; checks are on samples and events, never on durations (the
/// waits are hang guards).
enum SequencerScenarios {
    static let frames = 9_600   // 200 ms

    /// An enqueued feed follows a drained one with no silent sample between; each drains once.
    static func gaplessHandOver(_ rig: OutputRig) throws {
        let mark = rig.heard.sampleCount
        rig.sequencer.play(level(0.5, frames: frames, id: 1, rig), paused: false)
        rig.sequencer.enqueue(level(-0.5, frames: frames, id: 2, rig))
        let start = try XCTUnwrap(waitFor(rig, after: mark) { $0 > 0.25 }, "the first feed was not heard")
        let second = try XCTUnwrap(waitFor(rig, after: start) { $0 <= 0.25 }, "the first feed did not end")
        XCTAssertNotNil(waitFor(rig, after: second + frames - 1) { _ in true }, "the second feed did not play out")
        // A sound server may drop a new stream's very first milliseconds; the hand-over itself is exact.
        XCTAssertTrue((frames - 480...frames).contains(second - start), "the first feed heard for \(second - start) frames")
        XCTAssertEqual(rig.heard.samples(in: second..<second + frames).filter { $0 > -0.25 }.count, 0,
                       "the second feed right after the first, no silence between, all of it")
        try waitForEvent(rig, .drained(2))
        XCTAssertEqual(rig.events.withLock { $0 }, [.drained(1), .started(2), .drained(2)])
    }

    /// A feed that runs dry while its producer goes on reports an underrun, then a refill when
    /// frames come (the producer's callback wakes the output: no timer), then its drain.
    static func underrunAndRefill(_ rig: OutputRig) throws {
        let feed = PCMRing(id: 1, format: rig.sequencer.format, capacityFrames: frames)
        write(0.5, frames: 2_400, to: feed)
        rig.sequencer.play(feed, paused: false)
        try waitForEvent(rig, .underrun(1))
        write(0.5, frames: 2_400, to: feed)
        try waitForEvent(rig, .refilled(1))
        feed.finish()
        try waitForEvent(rig, .drained(1))
        let events = rig.events.withLock { $0 }   // it may run dry again before it is finished: more pairs
        XCTAssertEqual(events.first, .underrun(1))
        XCTAssertEqual(events.last, .drained(1))
        XCTAssertEqual(events.filter { $0 == .drained(1) }.count, 1, "\(events)")
    }

    /// A skip cancels what the device holds of the old feed (after a 3 ms fade-out): once the new one
    /// is heard, nothing of the old one is; the old one never drains.
    static func skipCancels(_ rig: OutputRig) throws {
        let mark = rig.heard.sampleCount
        let old = PCMRing(id: 1, format: rig.sequencer.format, capacityFrames: 48_000)
        write(0.5, frames: 48_000, to: old)   // a second, its producer still going: playing when the skip comes
        rig.sequencer.play(old, paused: false)
        let heardOld = try XCTUnwrap(waitFor(rig, after: mark) { $0 > 0.25 }, "the old feed was not heard")
        rig.sequencer.play(level(-0.5, frames: frames, id: 2, rig), paused: false)
        let start = try XCTUnwrap(waitFor(rig, after: heardOld) { $0 < -0.25 }, "the new feed was not heard")
        let rest = frames - rig.sequencer.machine.rampFrames   // past its fade-in (it crosses −0.25 halfway)
        XCTAssertNotNil(waitFor(rig, after: start + rest - 1) { _ in true })
        // ALSA's PulseAudio plugin opens a new stream after a drop, and a sink's monitor may miss a
        // new stream's first milliseconds (as in the gapless case): the new feed may end that much early.
        XCTAssertEqual(rig.heard.samples(in: start..<start + rest - 480).filter { $0 > -0.25 }.count, 0, "the old feed after the skip")
        try waitForEvent(rig, .drained(2))
        XCTAssertFalse(rig.events.withLock { $0 }.contains(.drained(1)), "a skipped feed does not drain")
    }

    /// Paused, nothing more is heard (once what was in flight has arrived); resumed, it goes on.
    static func pauseAndResume(_ rig: OutputRig) throws {
        let mark = rig.heard.sampleCount
        rig.sequencer.play(level(0.5, frames: 48_000, id: 1, rig), paused: false)
        XCTAssertNotNil(waitFor(rig, after: mark) { $0 > 0.25 }, "the feed was not heard")
        rig.sequencer.pause()
        XCTAssertNotNil(soundStops(rig, after: mark) { $0 > 0.25 }, "the sound went on after the pause")   // what the device already held plays out
        let paused = rig.heard.sampleCount
        usleep(500_000)   // The property: paused for half a second, nothing sounded.
        XCTAssertEqual(rig.heard.samples(in: paused..<rig.heard.sampleCount).filter { $0 > 0.25 }.count, 0, "sound while paused")
        rig.sequencer.resume()
        XCTAssertNotNil(waitFor(rig, after: paused) { $0 > 0.25 }, "resume did not go on")
        XCTAssertFalse(rig.events.withLock { $0 }.contains(.drained(1)), "a second of audio was not over before the pause")
    }

    /// A pause fades out and a resume fades in over the short ramp, as heard: around where the sound
    /// ends and where it comes back, no step between two heard samples above a tenth of the level (a
    /// cut at 0.5 is a step of 0.5; the 3 ms ramp's are 0.0035; a sound server's resampler may ring a
    /// little). Not the very first onset: a sound server may drop a new stream's first milliseconds.
    /// `lateDevice`: the device's thread is held for 40 ms right after the pause and the resume, as
    /// a busy machine holds it; what follows a flush must already be on its way to the device.
    static func pauseAndResumeAreRamped(_ rig: OutputRig, lateDevice: Bool = false) throws {
        // The property: the device's thread answers 40 ms late.
        let holdTheDevice = { if lateDevice { rig.sequencer.output.withLock { usleep(40_000) } } }
        let mark = rig.heard.sampleCount
        rig.sequencer.play(level(0.5, frames: 48_000, id: 1, rig), paused: false)
        let start = try XCTUnwrap(waitFor(rig, after: mark) { $0 > 0.25 }, "the feed was not heard")
        XCTAssertNotNil(waitFor(rig, after: start + 4_800) { _ in true }, "100 ms heard")
        rig.sequencer.pause()
        holdTheDevice()
        let end = try XCTUnwrap(waitFor(rig, after: start + 4_800) { $0 < 0.01 }, "the pause was not heard")
        XCTAssertNotNil(soundStops(rig, after: end) { abs($0) >= 0.01 }, "sound after the pause")   // paused a while, as heard
        rig.sequencer.resume()
        holdTheDevice()
        let back = try XCTUnwrap(waitFor(rig, after: end) { $0 > 0.25 }, "the resume was not heard")
        let full = try XCTUnwrap(waitFor(rig, after: back) { $0 > 0.49 }, "the resume did not reach the full level")
        XCTAssertNotNil(waitFor(rig, after: full + 480) { _ in true })
        for (what, range) in [("the pause", end - 480..<end + 48), ("the resume", max(end, back - 480)..<full + 480)] {
            let samples = rig.heard.samples(in: range)
            let step = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 1
            XCTAssertLessThan(step, 0.05, "\(what) is a step of \(step), not a ramp")
        }
    }

    // MARK: Helpers

    /// A finished feed of `frames` frames at `value`, in the rig's format.
    static func level(_ value: Float, frames: Int, id: UInt64, _ rig: OutputRig) -> PCMRing {
        let feed = PCMRing(id: id, format: rig.sequencer.format, capacityFrames: frames)
        write(value, frames: frames, to: feed)
        feed.finish()
        return feed
    }

    static func write(_ value: Float, frames: Int, to feed: PCMRing) {
        let samples = [Float](repeating: value, count: frames * feed.format.channels)
        XCTAssertTrue(samples.withUnsafeBufferPointer { feed.write($0.baseAddress!, frames: frames) })
    }

    /// The first sample after `start` that passes `test`, waiting for it (nil after 10 s times the patience).
    static func waitFor(_ rig: OutputRig, after start: Int, _ test: (Float) -> Bool) -> Int? {
        var position = start
        return eventually(interval: 0.005) { () -> Int? in
            let count = rig.heard.sampleCount
            if position < count, let hit = rig.heard.samples(in: position..<count).firstIndex(where: test) { return position + hit }
            position = max(position, count)
            return nil
        }
    }

    /// Waits until no sample that passes `sounding` has been heard after `start` for `quiet` seconds
    /// (what the device held has played out); returns how many were heard, nil when the sound went on.
    /// It ends once the heard sound has stopped, however much the device held.
    static func soundStops(_ rig: OutputRig, after start: Int, quiet: TimeInterval = 0.3, _ sounding: (Float) -> Bool) -> Int? {
        var counted = start, heard = 0
        return settled(quiet: quiet, interval: 0.005) { () -> Int in
            let count = rig.heard.sampleCount
            if counted < count {
                heard += rig.heard.samples(in: counted..<count).filter(sounding).count
                counted = count
            }
            return heard
        }
    }

    /// Waits for `event` (10 s times the patience); throws with the events seen when it never came.
    static func waitForEvent(_ rig: OutputRig, _ event: OutputEvent) throws {
        guard eventually(interval: 0.005, { rig.events.withLock { $0.contains(event) } }) else {
            throw TestSupportError("no \(event) within \(Patience.seconds(10)) s: \(rig.events.withLock { $0 })")
        }
    }
}

/// The in-memory device with a clock: its thread pulls 10 ms of frames every 10 ms, as a sound
/// card takes them, and keeps what it pulled.
final class PacedMemoryDevice: Heard, @unchecked Sendable {   // `pulled` is guarded by `lock`
    let output = MemoryOutput()
    private let lock = NSLock()
    private var pulled: [Float] = []
    private let stopped = Locked(false)

    init() {
        startThread(named: "test.device") { [self] in
            while !stopped.withLock({ $0 }) {
                usleep(10_000)   // The property: the test device's clock (a sound card takes 10 ms every 10 ms).
                let got = output.pull(480)
                lock.withLock { pulled += got }
            }
        }
    }

    func stop() { stopped.withLock { $0 = true } }
    var sampleCount: Int { lock.withLock { pulled.count } }
    func samples(in range: Range<Int>) -> [Float] {
        lock.withLock { Array(pulled[min(range.lowerBound, pulled.count)..<min(range.upperBound, pulled.count)]) }
    }
}
