import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// `--output pipe:PATH`: previewd writes s16le 48 kHz stereo into a FIFO (snapserver's pipe source,
/// MPD's fifo output); a `cat` of the FIFO is the reader, and what it receives is checked sample by
/// sample: the tones, their length, the pace, pause, volume and a reader that goes and comes back.
final class PipeOutputEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (StreamOutputTests run its output in-process)
    private var fifo = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        let folder = NSTemporaryDirectory() + "previewd-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        fifo = folder + "/snapfifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        recorder = try MonitorRecorder(fifo: fifo)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", "pipe:" + fifo])
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: (fifo as NSString).deletingLastPathComponent)
    }

    func testTheReaderGetsEachToneWholeGaplessAndNoFasterThanRealTime() throws {
        let started = Date()
        XCTAssertEqual(try daemon.ctl("search", "brief").status, 0)   // 770 Hz for 2 s, then 990 Hz for 2 s
        let first = try XCTUnwrap(recorder.waitForTone(770, after: 0))
        let second = try XCTUnwrap(recorder.waitForTone(990, after: first), "heard \(recorder.toneSequence(after: 0))")
        XCTAssertEqual(try waitForStatus { $0.state == .stopped }.index, 1)
        let received = recorder.sampleCount
        let elapsed = Date().timeIntervalSince(started)
        // Paced to real time: never more than was due (plus what previewd and the pipe hold ahead).
        XCTAssertLessThanOrEqual(Double(received), (elapsed + 0.25) * 48_000, "written faster than real time")
        // Each track whole: 2 s of each tone (±1 window), the stream continuous between them.
        let window = recorder.window
        let tones = stride(from: 0, to: received - window, by: window).map {
            ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: 48_000).dominantTone(in: recorder.samples(in: $0..<$0 + window)[...])
        }
        XCTAssertEqual(Double(tones.filter { $0 == 770 }.count), 40, accuracy: 1, "2 s of 770 Hz")
        XCTAssertEqual(Double(tones.filter { $0 == 990 }.count), 40, accuracy: 1, "2 s of 990 Hz")
        XCTAssertEqual(recorder.silentWindows(from: first, to: second, size: 480), [], "a gap between the tracks")
    }

    func testPauseStopsTheFlowResumeContinuesVolumeAndMuteAreInTheSamples() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let heard = try XCTUnwrap(recorder.waitForTone(440, after: 0))
        // Half a second in: a cold start fades in and its provisional gain is corrected in the first moments.
        XCTAssertNotNil(recorder.waitFor(after: heard + 28_800) { _, _, _ in true })
        let loud = ToneDetector.rms(recorder.samples(in: heard + 24_000..<heard + 28_800)[...])

        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        // What was in flight when pause came (at most ~160 ms) has arrived: the FIFO is quiet.
        let paused = try XCTUnwrap(settled(quiet: 0.3) { recorder.sampleCount }, "bytes kept coming while paused")
        // The property: paused for a second, not one byte more.
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(recorder.sampleCount, paused, "bytes kept coming while paused")
        let pausedAt = try status().positionMs

        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: paused), "resume did not continue")
        XCTAssertGreaterThanOrEqual(try status().positionMs, pausedAt)

        // 50 % on PulseAudio's cubic scale is 0.125 in amplitude: the samples themselves say so.
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("volume", "50").status, 0)
        let quiet = try XCTUnwrap(recorder.waitFor(after: mark + 24_000) { _, tone, _ in tone == 440 })
        let ratio = ToneDetector.rms(recorder.samples(in: quiet..<quiet + 4_800)[...]) / loud
        XCTAssertEqual(Double(ratio), 0.125, accuracy: 0.02, "volume 50")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("mute").status, 0)
        let muted = try XCTUnwrap(recorder.waitFor(after: mark + 24_000) { _, _, rms in rms == 0 }, "mute did not write silence")
        // Muted, the stream goes on (digital silence), so the reader is never starved.
        XCTAssertNotNil(recorder.waitFor(after: muted + 24_000) { _, _, _ in true }, "the stream stopped while muted")
        XCTAssertEqual(recorder.silentWindows(from: muted, to: muted + 24_000, size: 2_400),
                       Array(stride(from: muted, to: muted + 21_600, by: 2_400)), "sound while muted")
    }

    func testAReaderThatGoesAwayAndComesBackIsReconnectedAtTheSamePlace() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0))
        try waitForStatus("a second into the track") { $0.positionMs >= 1_000 }
        recorder.stop()
        let lost = try waitForStatus { $0.output != "ok" }
        XCTAssertTrue(daemon.isRunning)
        XCTAssertGreaterThan(lost.positionMs, 500)

        recorder = try MonitorRecorder(fifo: fifo)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0, timeout: 20), "no sound for the new reader; previewd logged:\n\(daemon.log)")
        let back = try waitForStatus { $0.output == "ok" }
        XCTAssertEqual(back.index, 0)
        XCTAssertGreaterThanOrEqual(back.positionMs, lost.positionMs, "resumed where the sound stopped, not from the top")
    }

    /// An `--output` that cannot work is refused before previewd starts, with what is wrong (exit 64,
    /// as for every bad option); a FIFO output never takes a regular file's place.
    func testAnOutputThatCannotWorkIsRefusedAtStartWithTheReason() throws {
        let previewd = try XCTUnwrap(BuildProducts.path("previewd"))
        let regularFile = (fifo as NSString).deletingLastPathComponent + "/regular"
        try "keep me\n".write(toFile: regularFile, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--output", "pipe:relative/fifo"], "needs an absolute path"),
            (["--output", "pipe:" + regularFile], "exists and is not a FIFO"),
            (["--output", "pipe:/nonexistent-folder/fifo"], "does not exist"),
            (["--output", "snapcast://[::1"], "unclosed ["),
            (["--output", "snapcast://127.0.0.1:70000"], "port must be 1–65535"),
            (["--output", "alsa2"], "must be pulse, alsa[:DEVICE], snapcast://HOST:PORT, pipe:PATH or http://HOST:PORT/NAME.mp3"),
            (["--output", "alsa:"], "alsa: needs a device name"),
            (["--output", "alsa", "--sink", "null"], "apply to --output pulse only"),
            (["--output", "pulse", "--alsa-mixer", "PCM"], "apply to --output alsa only"),
            (["--output", "alsa", "--alsa-format", "44100:12:2"], "--alsa-format must be RATE:BITS:CHANNELS"),
            (["--output", "pipe:" + fifo, "--sink", "null"], "apply to --output pulse only"),
            (["--ca-file", "/nonexistent/ca.pem"], "--ca-file /nonexistent/ca.pem: no such file"),
            (["--ca-file", regularFile], "no PEM certificate in it"),
            (["--preview-host", "ftp://cdn"], "--preview-host must be an http or https URL"),
            (["--keep-warm", "4000"], "--keep-warm must be 0–3600 s"),
        ]
        for (arguments, reason) in cases {
            let result = try ProcessRunner.run(previewd, arguments + ["--socket", fifo + ".sock"], timeout: 20)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try String(contentsOfFile: regularFile, encoding: .utf8), "keep me\n")
        XCTAssertTrue(daemon.isRunning, "the running previewd is untouched")
    }
}
