import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// previewd and PulseAudio servers of their own: one that dies and comes back, and one reached over
/// the network (`--pulse-server tcp:HOST:PORT`).
final class SoundServerEndToEndTests: DaemonTestCase {
    func testNetworkPulseAudioServerPlaysOverTCP() throws {
        let server = try PulseServer()
        try server.start()
        defer { server.stop() }
        let tcp = try server.listenOnTCP()
        recorder = try MonitorRecorder(sink: server.sinkName, server: server.address)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "PULSE_SERVER")
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--pulse-server", tcp, "--sink", server.sinkName],
                                   environment: environment)
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "played on the server reached over TCP")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(660, after: mark, "next over TCP")
        XCTAssertEqual(try status().output, "ok")
    }

    func testPulseAudioRestartMidTrackResumesWithoutACommand() throws {
        let server = try PulseServer()
        defer { server.stop() }
        try startOnPrivateServer(server)
        try checkTheServerDiesAndComesBack(server)
    }
}
