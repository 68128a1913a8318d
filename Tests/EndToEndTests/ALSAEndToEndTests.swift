import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// previewd `--output alsa:NAME`, NAME being ALSA's PulseAudio plugin into a fresh 44.1 kHz null sink
/// of the shared server (a test-only configuration through ALSA_CONFIG_PATH), its monitor recorded:
/// the core cases as heard, the device's format, a device that does not exist, and the server behind
/// the plugin going away and coming back.
final class ALSAEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (ALSAOutputTests, OutputScenarioTests run ALSA in-process)
    private var config: ALSATestConfig?

    /// previewd on ALSA into a fresh null sink at 44.1 kHz (the previews' rate, nothing converts).
    private func startOnALSA(_ arguments: [String] = []) throws {
        let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        let sink = try PulseNullSink(server: server, rate: 44_100)
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name, server: server, rate: 44_100)
        let config = try ALSATestConfig(pulseSink: sink.name, server: server)
        self.config = config
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", "alsa:" + config.device] + arguments,
                                   environment: config.environment)
    }

    override func tearDown() {
        super.tearDown()
        config?.remove()
    }

    func testSearchNextPauseResumePrevOnALSA() throws {
        try startOnALSA()
        try checkSearchNextPauseResumePrev()
        XCTAssertTrue(daemon.log.contains("output alsa:\(config!.device): 44100 Hz, 2 channels"), daemon.log)
    }

    func testGaplessAdvanceOnALSA() throws {
        try startOnALSA()
        try checkGaplessAdvance()
    }

    /// Volume in the samples, on PulseAudio's cubic scale; mute; repeat one.
    func testVolumeMuteAndRepeatOneOnALSA() throws {
        try startOnALSA()
        try checkVolumeMuteAndRepeatOne()
    }

    /// `--alsa-mixer`: volume and mute set on the device's mixer control (here the PulseAudio control
    /// plugin's `Master`, which is the sink's volume), not in the samples.
    func testVolumeOnTheMixerControl() throws {
        try startOnALSA(["--alsa-mixer", "Master"])
        let server = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        let pactl = try XCTUnwrap(ProcessRunner.which("pactl"))
        let serverArguments = server.map { ["--server", $0] } ?? []
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result")
        XCTAssertEqual(try daemon.ctl("volume", "50").status, 0)
        let volume = try ProcessRunner.run(pactl, serverArguments + ["get-sink-volume", sink!.name], timeout: 10)
        XCTAssertTrue(volume.stdout.contains(" 50% "), "the sink's volume: \(volume.stdout)")
        XCTAssertEqual(try daemon.ctl("mute").status, 0)
        let mute = try ProcessRunner.run(pactl, serverArguments + ["get-sink-mute", sink!.name], timeout: 10)
        XCTAssertTrue(mute.stdout.contains("yes"), "the sink's mute: \(mute.stdout)")
    }

    /// A device ALSA does not know: previewd's could-not-start status, with the reason.
    func testAnUnknownDeviceCannotStart() throws {
        let config = try ALSATestConfig(rawFile: "/dev/null")
        defer { config.remove() }
        let previewd = try XCTUnwrap(BuildProducts.path("previewd"))
        let socket = NSTemporaryDirectory() + "previewd-alsa-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let result = try ProcessRunner.run(previewd, ["--socket", socket, "--no-mpris", "--output", "alsa:previewd_nosuch"],
                                           environment: config.environment, timeout: 20)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot start the output: cannot open ALSA device previewd_nosuch: No such file or directory"),
                      result.stderr)
    }

    /// The PulseAudio server behind the plugin killed while playing: the loss is reported with the
    /// position where the sound stopped, previewd goes on, and when the server is back the device is
    /// opened again and the track resumes from there (no command).
    func testTheServerBehindThePluginDiesAndComesBack() throws {
        let server = try PulseServer()
        try server.start()
        defer { server.stop() }
        let config = try ALSATestConfig(pulseSink: server.sinkName, server: server.address)
        self.config = config
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", "alsa:" + config.device],
                                   environment: config.environment)
        try checkTheServerDiesAndComesBack(server)
    }
}
