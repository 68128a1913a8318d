import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// The output and transport as heard: gapless hand-over, prefetched neighbours, volume and mute,
/// repeat, and a PulseAudio server that dies and comes back.
final class OutputEndToEndTests: DaemonTestCase {
    func testAutoAdvanceIsGaplessTheTonesTouch() throws {
        try startOnSharedServer()
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)   // 770 Hz for 2 s, then 990 Hz for 2 s
        let first = try XCTUnwrap(recorder.waitForTone(770, after: mark))
        let second = try XCTUnwrap(recorder.waitForTone(990, after: first), "heard \(recorder.toneSequence(after: mark))")
        // 10 ms windows from the first tone to the second: none may be silent.
        let gaps = recorder.silentWindows(from: first, to: second, size: recorder.sampleRate / 100)
        XCTAssertEqual(gaps, [], "silence between the tracks at samples \(gaps.prefix(5)) (\(gaps.count) × 10 ms)")
        XCTAssertEqual(recorder.toneSequence(after: mark).prefix(2), [770, 990])
    }

    func testNeighboursArePrefetchedAndPrevIsPlayedFromThem() throws {
        try startOnSharedServer()
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark))
        var report = try status()
        let next = try XCTUnwrap(report.slots.first { $0.role == "next" }, "\(report.slots)")
        XCTAssertEqual(next.index, 1)
        XCTAssertEqual(next.trackId, 1002)
        XCTAssertTrue(next.complete)
        XCTAssertNotEqual(next.state, "decoding", "the next track's first seconds are decoded ahead")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        XCTAssertNotNil(recorder.waitForTone(660, after: mark))
        report = try status()
        XCTAssertEqual(Set(report.slots.map(\.role)), ["current", "next", "previous"], "\(report.slots)")
        XCTAssertEqual(report.slots.first { $0.role == "previous" }?.index, 0)
        XCTAssertEqual(report.slots.first { $0.role == "next" }?.index, 2)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("prev").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark), "prev plays the previous track")
        // Every preview was fetched once: the neighbours came from memory, not a second request.
        let fetches = standIn.requestLog.filter { $0.contains("/previews/tone-440") }
        XCTAssertEqual(fetches.count, 1, "\(standIn.requestLog)")
    }

    func testVolumeMuteAndRepeatOne() throws {
        try startOnSharedServer()
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let loud = try XCTUnwrap(recorder.waitForTone(440, after: mark))
        let loudRMS = ToneDetector.rms(recorder.samples(in: loud..<loud + 4800)[...])

        mark = recorder.sampleCount
        let volume = try daemon.ctl("--json", "volume", "50")
        XCTAssertEqual(volume.status, 0, volume.stderr)
        XCTAssertEqual(try status().volume, 50)
        // 50 % of PulseAudio's normal volume is about -18 dB (its scale is cubic).
        let quiet = recorder.waitFor(after: mark + recorder.sampleRate / 5) { _, tone, rms in tone == 440 && rms < loudRMS / 4 }
        XCTAssertNotNil(quiet, "volume 50 did not make the tone quieter")
        XCTAssertEqual(try daemon.ctl("volume", "+10").status, 0)
        XCTAssertEqual(try status().volume, 60)

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("mute").status, 0)
        XCTAssertTrue(try status().muted)
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.3, after: mark), "mute did not silence")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("mute", "off").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: mark), "unmute did not bring the tone back")

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

    func testPulseAudioRestartMidTrackResumesWithoutACommand() throws {
        let server = try PulseServer()
        try server.start()
        defer { server.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server.address
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", server.sinkName], environment: environment)

        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0))
        usleep(1_500_000)
        let before = try status().positionMs

        server.kill()
        recorder.stop()
        usleep(300_000)
        let lost = try status()
        XCTAssertNotEqual(lost.output, "ok", "the lost output is reported")
        XCTAssertTrue(daemon.isRunning)
        XCTAssertGreaterThanOrEqual(lost.positionMs, before - 200, "the position where the sound stopped is kept")

        try server.start()
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0, timeout: 20), "no sound after the server came back")
        let back = try status()
        XCTAssertEqual(back.output, "ok")
        XCTAssertEqual(back.index, 0)
        XCTAssertGreaterThanOrEqual(back.positionMs, lost.positionMs, "resumed where the sound stopped, not from the top")
    }
}
