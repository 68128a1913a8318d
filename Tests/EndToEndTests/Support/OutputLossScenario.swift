import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// The sound server lost while playing and back, shared by PulseAudio (previewd's own connection)
/// and ALSA (the server behind ALSA's PulseAudio plugin): each test starts previewd on `server`
/// with `recorder` on its sink's monitor, and calls this.
extension DaemonTestCase {
    /// Starts `server` and previewd on its sink (`PULSE_SERVER` its address), the monitor recorded.
    func startOnPrivateServer(_ server: PulseServer) throws {
        try server.start()
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = server.address
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", server.sinkName], environment: environment)
    }

    /// `server` killed while previewd plays: the loss is reported with the position where the sound
    /// stopped, previewd goes on, and when the server is back the device is opened again and the
    /// track resumes from there (no command).
    func checkTheServerDiesAndComesBack(_ server: PulseServer) throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0))
        // Well into the track: resuming from where it stopped and from the top differ by 1.5 s.
        let before = try waitForStatus("playing 1.5 s into the track") { $0.positionMs >= 1_500 }.positionMs

        server.kill()
        recorder.stop()
        // Noticed at the next write: within a period.
        let lost = try waitForStatus("the lost output is reported") { $0.output != "ok" }
        XCTAssertNotEqual(lost.output, "ok", "the lost output is reported")
        XCTAssertTrue(daemon.isRunning)
        XCTAssertGreaterThanOrEqual(lost.positionMs, before - 200, "the position where the sound stopped is kept")

        try server.start()
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0, timeout: 20), "no sound after the server came back; previewd logged:\n\(daemon.log)")
        let back = try status()
        XCTAssertEqual(back.output, "ok")
        XCTAssertEqual(back.index, 0)
        XCTAssertGreaterThanOrEqual(back.positionMs, lost.positionMs, "resumed where the sound stopped, not from the top")
    }
}
