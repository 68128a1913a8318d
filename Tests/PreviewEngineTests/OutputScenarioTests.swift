import Foundation
import Glibc
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The same sequencer scenarios (`SequencerScenarios`: gapless hand-over, drain, underrun and
/// refill, skip, pause, the ramps of a pause and a resume) over every kind of output: the in-memory
/// test device, PulseAudio (a null sink's monitor recorded), ALSA (through its PulseAudio plugin into
/// a null sink, recorded the same way) and the stream output into a FIFO (its reader recorded).
final class OutputScenarioTests: XCTestCase {
    private var rig: OutputRig!

    override func tearDown() {
        rig?.close()
        rig = nil
        super.tearDown()
    }

    // MARK: The in-memory device

    private func memory() -> OutputRig {
        let device = PacedMemoryDevice()
        let sequencer = OutputSequencer(output: device.output)
        return OutputRig(sequencer: sequencer, heard: device) { device.stop() }
    }

    func testMemoryGapless() throws { rig = memory(); try SequencerScenarios.gaplessHandOver(rig) }
    func testMemoryUnderrun() throws { rig = memory(); try SequencerScenarios.underrunAndRefill(rig) }
    func testMemorySkip() throws { rig = memory(); try SequencerScenarios.skipCancels(rig) }
    func testMemoryPause() throws { rig = memory(); try SequencerScenarios.pauseAndResume(rig) }
    func testMemoryRamps() throws { rig = memory(); try SequencerScenarios.pauseAndResumeAreRamped(rig) }

    // MARK: PulseAudio

    private func pulse(rewinds: Bool = true) throws -> OutputRig {
        let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        guard PulseNullSink.serverReachable else {
            if ProcessInfo.processInfo.environment["PREVIEWD_REQUIRE_PULSE"] == "1" { throw TestSupportError("no PulseAudio server reachable") }
            throw XCTSkip("no PulseAudio server reachable; run scripts/test")
        }
        let sink = try PulseNullSink(server: server, rewinds: rewinds)
        let recorder = try MonitorRecorder(sink: sink.name, server: server)
        // The monitor flows (the null sink's silence) before anything plays: nothing is missed.
        XCTAssertNotNil(recorder.waitFor(after: 0) { _, _, _ in true }, "the monitor is not recording")
        let sequencer = try OutputRegistry.makeSequencer(OutputOptions(sink: sink.name, pulseServer: server))
        return OutputRig(sequencer: sequencer, heard: recorder) {
            sequencer.close()
            recorder.stop()
            sink.remove()
        }
    }

    /// The output asks for the sink's own rate, so the server resamples nothing: 44.1 kHz for a
    /// 44.1 kHz sink (the previews' rate: no conversion anywhere), 48 kHz for a 48 kHz one.
    func testPulseTakesTheSinksOwnRate() throws {
        let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        guard PulseNullSink.serverReachable else { throw XCTSkip("no PulseAudio server reachable; run scripts/test") }
        for rate in [44_100, 48_000] {
            let sink = try PulseNullSink(server: server, rate: rate)
            defer { sink.remove() }
            let sequencer = try OutputRegistry.makeSequencer(OutputOptions(sink: sink.name, pulseServer: server))
            defer { sequencer.close() }
            XCTAssertEqual(sequencer.format, PCMFormat(sampleRate: rate, channels: 2))
        }
        let nowhere = try OutputRegistry.makeSequencer(OutputOptions(pulseServer: "unix:/nonexistent/native"))
        defer { nowhere.close() }
        XCTAssertEqual(nowhere.format, .preferred, "no server to ask: 44.1 kHz, and the server converts later")
    }

    func testPulseGapless() throws { rig = try pulse(); try SequencerScenarios.gaplessHandOver(rig) }
    func testPulseUnderrun() throws { rig = try pulse(); try SequencerScenarios.underrunAndRefill(rig) }
    func testPulseSkip() throws { rig = try pulse(); try SequencerScenarios.skipCancels(rig) }
    func testPulsePause() throws { rig = try pulse(); try SequencerScenarios.pauseAndResume(rig) }
    /// On a sink that never rewinds: PulseAudio starts an uncorked stream by rewinding what its sink
    /// had rendered ahead, and a monitor cannot take back the silence it already delivered (it lost
    /// 0 to all 3 ms of a resume's ramp, the sink's device none of it). The client answers late, as
    /// on a busy machine: the sink keeps only a few ms of its own after a flush (CI saw a pause cut
    /// when the fade-out waited for the server's request).
    func testPulseRamps() throws {
        rig = try pulse(rewinds: false)
        try SequencerScenarios.pauseAndResumeAreRamped(rig, lateDevice: true)
    }

    // MARK: ALSA, through its PulseAudio plugin

    private func alsa() throws -> OutputRig {
        let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        guard PulseNullSink.serverReachable else {
            if ProcessInfo.processInfo.environment["PREVIEWD_REQUIRE_PULSE"] == "1" { throw TestSupportError("no PulseAudio server reachable") }
            throw XCTSkip("no PulseAudio server reachable; run scripts/test")
        }
        // A 44.1 kHz sink: the device takes the previews' rate, and nothing between converts it.
        let sink = try PulseNullSink(server: server, rate: 44_100)
        let recorder = try MonitorRecorder(sink: sink.name, server: server, rate: 44_100)
        XCTAssertNotNil(recorder.waitFor(after: 0) { _, _, _ in true }, "the monitor is not recording")
        let config = try ALSATestConfig(pulseSink: sink.name, server: server)
        let sequencer = try OutputRegistry.makeSequencer(OutputOptions(output: "alsa:" + config.device))
        XCTAssertEqual(sequencer.format, PCMFormat(sampleRate: 44_100, channels: 2), "the device's choice: the previews' own rate")
        return OutputRig(sequencer: sequencer, heard: recorder) {
            sequencer.close()
            recorder.stop()
            sink.remove()
            config.remove()
        }
    }

    func testALSAGapless() throws { rig = try alsa(); try SequencerScenarios.gaplessHandOver(rig) }
    func testALSAUnderrun() throws { rig = try alsa(); try SequencerScenarios.underrunAndRefill(rig) }
    func testALSASkip() throws { rig = try alsa(); try SequencerScenarios.skipCancels(rig) }
    func testALSAPause() throws { rig = try alsa(); try SequencerScenarios.pauseAndResume(rig) }
    // No ramp scenario through the plugin: after a drop it opens a new PulseAudio stream whose first
    // ~10 ms the monitor misses, the whole of a 3 ms fade. The ramp is the sequencer's, the same for
    // every output; ALSA's part (playing the fade-out before it pauses) is in ALSAOutput+Writer.

    // MARK: A FIFO

    private func fifo() throws -> OutputRig {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previewd-scenario-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        // A reader of our own from the start (it never reads), so the output's first open finds one
        // whenever `cat` gets to open; what is written meanwhile waits in the FIFO for `cat`.
        let keeper = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(keeper, 0)
        let recorder = try MonitorRecorder(fifo: path)
        let sequencer = try OutputRegistry.makeSequencer(OutputOptions(output: "pipe:" + path, latencyMs: 40))
        return OutputRig(sequencer: sequencer, heard: recorder) {
            sequencer.close()
            recorder.stop()
            close(keeper)
            try? FileManager.default.removeItem(at: folder)
        }
    }

    func testFIFOGapless() throws { rig = try fifo(); try SequencerScenarios.gaplessHandOver(rig) }
    func testFIFOUnderrun() throws { rig = try fifo(); try SequencerScenarios.underrunAndRefill(rig) }
    func testFIFOSkip() throws { rig = try fifo(); try SequencerScenarios.skipCancels(rig) }
    func testFIFOPause() throws { rig = try fifo(); try SequencerScenarios.pauseAndResume(rig) }
    func testFIFORamps() throws { rig = try fifo(); try SequencerScenarios.pauseAndResumeAreRamped(rig) }
}
