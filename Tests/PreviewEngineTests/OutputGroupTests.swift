import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// Several outputs behind one sequencer (`OutputGroup`), each a `MemoryOutput` whose "device
/// thread" is the test: the clock's pulls reach every enabled follower, a follower that does not
/// pull loses only its own frames, switching an output off moves the clock, a lost clock hands
/// over, the followers pause after what they hold. Frames and events, never time.
final class OutputGroupTests: XCTestCase {
    private let events = Locked<[OutputEvent]>([])

    /// A group over `outputs` (the first plays to a device unless `devices` says otherwise) and its sequencer.
    private func group(_ outputs: [MemoryOutput], devices: [Bool]? = nil, queueMs: Int = 250) throws -> (OutputGroup, OutputSequencer) {
        let made = outputs.enumerated().map { i, output in
            (device: output as any AudioOutput, name: "out\(i)", plugin: "null", playsToDevice: devices?[i] ?? true)
        }
        let group = try OutputGroup(made, queueMilliseconds: queueMs)
        let sequencer = OutputSequencer(output: group, rampMilliseconds: 0)
        sequencer.setEventHandler { [events] event in events.withLock { $0.append(event) } }
        return (group, sequencer)
    }

    private func feed(_ id: UInt64, _ values: [Float], format: PCMFormat = PCMFormat(sampleRate: 48_000, channels: 1)) -> PCMRing {
        let pcm = PCMRing(id: id, format: format, capacityFrames: max(1024, values.count))
        XCTAssertTrue(values.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: values.count / format.channels) })
        pcm.finish()
        return pcm
    }

    func testEveryEnabledOutputGetsTheClocksFrames() throws {
        let (a, b, c) = (MemoryOutput(), MemoryOutput(), MemoryOutput())
        let (group, sequencer) = try group([a, b, c])
        XCTAssertTrue(group.clock.device === a)
        sequencer.play(feed(1, [1, 2, 3, 4, 5, 6]), paused: false)
        XCTAssertFalse(b.recorded.paused, "a follower sounds when the group does")
        XCTAssertEqual(a.pull(4), [1, 2, 3, 4])
        XCTAssertEqual(b.recorded.kicks, 1, "a follower with nothing queued is kicked when frames come")
        XCTAssertEqual(b.pull(10), [1, 2, 3, 4])
        XCTAssertEqual(a.pull(4), [5, 6])
        XCTAssertEqual(b.pull(10), [5, 6])
        XCTAssertEqual(c.pull(10), [1, 2, 3, 4, 5, 6], "a follower that pulls late gets it all, in order")
    }

    func testAFollowerThatDoesNotPullLosesOnlyItsOwnFrames() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        let (group, sequencer) = try group([a, b], queueMs: 1)   // 48 frames
        let values = (0..<200).map(Float.init)
        sequencer.play(feed(1, values), paused: false)
        XCTAssertEqual(a.pull(100), Array(values[0..<100]))
        XCTAssertEqual(a.pull(100), Array(values[100..<200]), "the clock never waits for a follower")
        XCTAssertEqual(b.pull(200), Array(values[0..<48]), "the follower kept what its queue holds")
        b.withLock { XCTAssertEqual(group.members[1].dropped, 152) }
    }

    func testSwitchingTheClockOffMovesItAndTheOtherPlaysOn() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        let (group, sequencer) = try group([a, b])
        sequencer.play(feed(1, [1, 2, 3, 4, 5, 6]), paused: false)
        XCTAssertEqual(a.pull(2), [1, 2])
        XCTAssertEqual(b.pull(2), [1, 2])
        group.setEnabled([false, true])
        XCTAssertTrue(group.clock.device === b)
        XCTAssertTrue(a.recorded.paused, "the output switched off pauses")
        XCTAssertEqual(b.pull(10), [3, 4, 5, 6], "the other pulls on from the sequencer, where it was")
        XCTAssertEqual(a.pull(10), [], "the one switched off gets nothing")
        group.setEnabled([true, true])
        XCTAssertTrue(group.clock.device === a, "the first output that plays to a device keeps the clock again")
        XCTAssertTrue(events.withLock { $0 }.allSatisfy { if case .lost = $0 { false } else { true } })
    }

    func testSwitchingAFollowerOffAndOnLeavesTheClockAlone() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        let (group, sequencer) = try group([a, b])
        sequencer.play(feed(1, [1, 2, 3, 4, 5, 6]), paused: false)
        group.setEnabled([true, false])
        XCTAssertTrue(group.clock.device === a)
        XCTAssertEqual(a.pull(3), [1, 2, 3])
        XCTAssertEqual(b.pull(10), [], "switched off: nothing queued for it")
        XCTAssertTrue(b.recorded.paused)
        group.setEnabled([true, true])
        XCTAssertFalse(b.recorded.paused)
        XCTAssertEqual(a.pull(3), [4, 5, 6])
        XCTAssertEqual(b.pull(10), [4, 5, 6], "back on: it hears from now on")
    }

    func testWithEveryOutputOffTheClockPlaysOnSilently() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        let (group, sequencer) = try group([a, b])
        sequencer.play(feed(1, [1, 2, 3]), paused: false)
        group.setEnabled([false, false])
        XCTAssertTrue(group.clock.device === a)
        XCTAssertTrue(a.recorded.volume.muted, "the clock keeps the position running, silent")
        XCTAssertFalse(b.recorded.volume.muted)
        XCTAssertEqual(a.pull(3), [1, 2, 3])
        XCTAssertEqual(b.pull(3), [])
        group.setEnabled([true, false])
        XCTAssertFalse(a.recorded.volume.muted)
    }

    /// "Here only" (a page plays the queue itself): the outputs that sound in the room (a card, a
    /// pipe to Snapcast) go silent, their clocks and frames running; a stream listeners open keeps
    /// sounding; the listener's mute stays theirs.
    func testHereOnlySilencesTheRoomAndNotTheStream() throws {
        let (speakers, pipe, stream) = (MemoryOutput(), MemoryOutput(), MemoryOutput())
        let group = try OutputGroup([(speakers, "speakers", "pulse", true), (pipe, "pipe", "fifo", false), (stream, "stream", "httpd", false)],
                                    queueMilliseconds: 250)
        let sequencer = OutputSequencer(output: group, rampMilliseconds: 0)
        sequencer.play(feed(1, [1, 2, 3]), paused: false)
        sequencer.silenceDevices(true)
        XCTAssertTrue(sequencer.silencesDevices)
        XCTAssertTrue(speakers.recorded.volume.muted, "the speakers are silent")
        XCTAssertTrue(pipe.recorded.volume.muted, "Snapcast's pipe plays in a room too")
        XCTAssertFalse(stream.recorded.volume.muted, "the stream streams on")
        XCTAssertEqual(speakers.pull(3), [1, 2, 3], "the silent clock still runs")
        XCTAssertEqual(stream.pull(3), [1, 2, 3])
        sequencer.setVolume(40, muted: false)
        XCTAssertTrue(speakers.recorded.volume.muted, "a volume change keeps them silent")
        XCTAssertEqual(stream.recorded.volume.percent, 40)
        sequencer.silenceDevices(false)
        XCTAssertFalse(speakers.recorded.volume.muted, "the sound given back")
        XCTAssertFalse(pipe.recorded.volume.muted)
        XCTAssertTrue(group.clock.device === speakers)
    }

    func testALostClockHandsOverWithoutStoppingTheSound() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        let (group, sequencer) = try group([a, b])
        sequencer.play(feed(1, [1, 2, 3, 4]), paused: false)
        XCTAssertEqual(a.pull(2), [1, 2])
        a.lose("gone")
        XCTAssertTrue(group.clock.device === b)
        XCTAssertEqual(b.pull(10), [1, 2, 3, 4], "what it had queued, then on from the sequencer")
        XCTAssertEqual(events.withLock { $0 }.filter { if case .lost = $0 { true } else { false } }.count, 0)
        b.lose("gone too")
        XCTAssertEqual(events.withLock { $0 }.filter { if case .lost = $0 { true } else { false } }.count, 1,
                       "with no output left the player hears of the loss")
    }

    func testAFollowerPlaysWhatItHoldsBeforeItPauses() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        let (_, sequencer) = try group([a, b])
        sequencer.play(feed(1, [1, 2, 3, 4]), paused: false)
        XCTAssertEqual(a.pull(2), [1, 2])
        sequencer.pause()
        XCTAssertTrue(a.recorded.paused)
        XCTAssertFalse(b.recorded.paused, "still holds two frames")
        XCTAssertEqual(b.pull(10), [1, 2])
        XCTAssertTrue(b.recorded.paused)
        sequencer.resume()
        XCTAssertFalse(b.recorded.paused)
        XCTAssertEqual(a.pull(10), [3, 4])
        XCTAssertEqual(b.pull(10), [3, 4])
    }

    func testAFollowerAtAnotherRateGetsConvertedFrames() throws {
        let a = MemoryOutput(format: PCMFormat(sampleRate: 48_000, channels: 2))
        let b = MemoryOutput(format: PCMFormat(sampleRate: 44_100, channels: 2))
        let (group, sequencer) = try group([a, b])
        XCTAssertEqual(group.format, a.format)
        let frames = 4_800
        let tone = (0..<frames).flatMap { i -> [Float] in let v = Float(sin(Double(i) * 2 * .pi * 441 / 48_000)) * 0.5; return [v, v] }
        sequencer.play(feed(1, tone, format: a.format), paused: false)
        XCTAssertEqual(a.pull(frames).count, frames * 2)
        let converted = b.pull(10_000)
        XCTAssertEqual(Double(converted.count / 2), 4_410, accuracy: 64, "0.1 s at 44.1 kHz, less what the filter holds")
        let peak = converted.map(abs).max() ?? 0
        XCTAssertEqual(Double(peak), 0.5, accuracy: 0.05, "the same tone, at the same level")
    }

    /// Devices that pull inside their kick (PulseAudio writes at once): moving the clock either way,
    /// and a lost clock handing over, never has a thread take a lock it holds (the pull copies to
    /// the old clock, whose lock the move held). A deadlock here hangs the test.
    func testDevicesThatPullInTheirKickSurviveEveryMoveOfTheClock() throws {
        let (a, b) = (MemoryOutput(), MemoryOutput())
        a.pullsOnKick = 2
        b.pullsOnKick = 2
        let (group, sequencer) = try group([a, b])
        sequencer.play(feed(1, (1...40).map(Float.init)), paused: false)
        group.setEnabled([false, true])
        XCTAssertTrue(group.clock.device === b)
        group.setEnabled([true, true])
        XCTAssertTrue(group.clock.device === a)
        a.lose("gone")
        XCTAssertTrue(group.clock.device === b)
        XCTAssertEqual(events.withLock { $0 }.filter { if case .lost = $0 { true } else { false } }.count, 0)
        let heard = b.recorded.written
        XCTAssertEqual(heard, heard.sorted(), "the frames in order, none twice: \(heard)")
    }

    func testTheClockIsTheFirstDeviceOutputElseTheFirst() throws {
        let (pipe, card) = (MemoryOutput(), MemoryOutput())
        let (group, _) = try group([pipe, card], devices: [false, true])
        XCTAssertTrue(group.clock.device === card)
        group.setEnabled([true, false])
        XCTAssertTrue(group.clock.device === pipe, "paced by real time when no device output is on")
    }
}
