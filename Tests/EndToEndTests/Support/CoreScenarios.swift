import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// The core cases as heard, shared by the PulseAudio tests and the same tests on PipeWire: each
/// expects previewd started on a null sink with its monitor recorded (`startOnSharedServer`).
extension DaemonTestCase {
    /// search plays the first result; next, pause, resume, prev and play N are heard at once.
    func checkSearchNextPauseResumePrev() throws {
        var mark = recorder.sampleCount
        let search = try daemon.ctl("search", "sine waves")
        XCTAssertEqual(search.status, 0, search.stderr)
        expectTone(440, after: mark, "first result")
        var report = try status()
        XCTAssertEqual(report.state, .playing)
        XCTAssertEqual(report.index, 0)
        XCTAssertEqual(report.queueLength, 7)
        XCTAssertEqual(report.track?.trackId, 1001)
        XCTAssertEqual(report.track?.previewUrl, "\(standIn.baseURL)/previews/tone-440.m4a")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(660, after: mark, "after next")
        // previewd's position counts what the device has played, the sound server's latency taken
        // off; the monitor hears a sink's frames as it renders them, earlier. On PipeWire that
        // latency is a quantum or more, so a pause sent as soon as the monitor heard the new track
        // could still come before the device had played any of it, and the pause's position was
        // rightly 0. So the pause waits until previewd counts some of the track as played.
        try waitForStatus("some of the next track played") { $0.index == 1 && $0.positionMs > 0 }

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: mark), "pause did not bring silence")
        report = try status()
        XCTAssertEqual(report.state, .paused)
        let pausedAt = report.positionMs
        XCTAssertGreaterThan(pausedAt, 0)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        expectTone(660, after: mark, "after resume")
        report = try status()
        XCTAssertEqual(report.state, .playing)
        XCTAssertGreaterThanOrEqual(report.positionMs, pausedAt, "resume continues where pause stopped")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("prev").status, 0)
        expectTone(440, after: mark, "after prev")
        XCTAssertEqual(try status().index, 0)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("play", "3").status, 0)
        expectTone(1100, after: mark, "play 3")   // the 48 kHz source

        XCTAssertEqual(try daemon.ctl("stop").status, 0)
        XCTAssertEqual(try status().state, .stopped)
    }

    /// Auto-advance is gapless: the two tones touch, no 10 ms window between them is silent.
    func checkGaplessAdvance() throws {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)   // 770 Hz for 2 s, then 990 Hz for 2 s
        let first = try XCTUnwrap(recorder.waitForTone(770, after: mark))
        let second = try XCTUnwrap(recorder.waitForTone(990, after: first), "heard \(recorder.toneSequence(after: mark))")
        let gaps = silentWindows(joining: first, second)
        XCTAssertEqual(gaps, [], "silence between the tracks at samples \(gaps.prefix(5)) (\(gaps.count) × 10 ms)")
        XCTAssertEqual(recorder.toneSequence(after: mark).prefix(2), [770, 990])
    }

    /// The silent 10 ms windows around the seam of a tone heard from `first` and the next from
    /// `second`: from the first's last second to the second's first half second (once recorded).
    /// (PipeWire may drop a few ms as its null sink wakes from suspend, at the start of the stream,
    /// far from the seam.)
    func silentWindows(joining first: Int, _ second: Int) -> [Int] {
        XCTAssertNotNil(recorder.waitFor(after: second + recorder.sampleRate / 2) { _, _, _ in true })
        return recorder.silentWindows(from: max(first, second - recorder.sampleRate), to: second + recorder.sampleRate / 2,
                                      size: recorder.sampleRate / 100)
    }

    /// Volume (PulseAudio's cubic scale), mute and unmute as heard; repeat one and shuffle.
    func checkVolumeMuteAndRepeatOne() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let heard = try XCTUnwrap(recorder.waitForTone(440, after: mark))
        // The level once steady: PipeWire fades a new stream in over its first few tens of ms.
        let loud = try XCTUnwrap(recorder.waitFor(after: heard + recorder.sampleRate * 3 / 10) { _, tone, _ in tone == 440 })
        let loudRMS = ToneDetector.rms(recorder.samples(in: loud..<loud + 4800)[...])

        mark = recorder.sampleCount
        let volume = try daemon.ctl("--json", "volume", "50")
        XCTAssertEqual(volume.status, 0, volume.stderr)
        XCTAssertEqual(try status().volume, 50)
        // 50 % of PulseAudio's normal volume is about -18 dB (its scale is cubic).
        let quiet = recorder.waitFor(after: mark + recorder.sampleRate / 5) { _, tone, rms in tone == 440 && rms < loudRMS / 4 }
        XCTAssertNotNil(quiet, "volume 50 did not make the tone quieter than \(loudRMS) / 4; RMS/tone after: \(recorder.levels(after: mark))")
        XCTAssertEqual(try daemon.ctl("volume", "+10").status, 0)
        XCTAssertEqual(try status().volume, 60)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("mute").status, 0)
        XCTAssertTrue(try status().muted)
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.3, after: mark), "mute did not silence")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("mute", "off").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark), "unmute did not bring the tone back; RMS/tone after: \(recorder.levels(after: mark))")

        XCTAssertEqual(try daemon.ctl("repeat", "one").status, 0)
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)
        let first = try XCTUnwrap(recorder.waitForTone(770, after: mark))
        // 2 s track: after 3 s it must be 770 Hz again, never 990 Hz.
        XCTAssertNotNil(recorder.waitFor(after: first + 3 * recorder.sampleRate) { _, tone, _ in tone == 770 })
        XCTAssertFalse(recorder.toneSequence(after: mark).contains(990), "repeat one moved on")
        XCTAssertEqual(try status().repeat, .one)
        XCTAssertEqual(try daemon.ctl("shuffle", "on").status, 0)
        XCTAssertTrue(try status().shuffle)
    }
}
