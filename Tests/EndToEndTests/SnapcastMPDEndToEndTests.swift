import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Snapcast's now-playing plug-in on previewd's MPD port: Debian's snapserver runs its own
/// meta_mpd.py as the control script of the source previewd feeds; snapserver's JSON-RPC then shows
/// what previewd plays, and `Stream.Control next` reaches previewd through MPD's protocol, heard
/// through snapclient.
final class SnapcastMPDEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (snapclient's sound; MPDEndToEndTests run MPD)
    private static let plugin = "/usr/share/snapserver/plug-ins/meta_mpd.py"
    private var snapcast: SnapcastServer?
    private var folder = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.fileExists(atPath: Self.plugin) else { throw XCTSkip("snapserver's meta_mpd.py is not installed") }
        let port = try LoopbackPort.free()
        folder = NSTemporaryDirectory() + "previewd-metampd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // snapserver 0.26 passes no script parameters: a wrapper adds the MPD port, and keeps
        // MusicBrainz (which the plug-in asks about every title) offline.
        let wrapper = folder + "/meta_previewd.py"
        try """
            #!/usr/bin/python3
            import os, runpy, sys, musicbrainzngs
            open("\(folder)/script.pid", "w").write(str(os.getpid()))
            musicbrainzngs.search_releases = lambda *a, **k: {"release-list": []}
            sys.argv = ["\(Self.plugin)"] + sys.argv[1:] + ["--mpd-host=127.0.0.1", "--mpd-port=\(port)"]
            runpy.run_path("\(Self.plugin)", run_name="__main__")

            """.write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let snapcast = try SnapcastServer(controlScript: wrapper)
        self.snapcast = snapcast
        try snapcast.start()
        let sink = try PulseNullSink()
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name)
        try snapcast.addClient(sink: sink.name, pulseServer: nil)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", snapcast.output, "--mpd", "127.0.0.1:\(port)"])
    }

    override func tearDown() {
        super.tearDown()
        snapcast?.stop()
        // snapserver dies by SIGKILL in the rig and cannot end its control script: the test does.
        if let pid = try? String(contentsOfFile: folder + "/script.pid", encoding: .utf8), let number = Int32(pid) { kill(number, SIGTERM) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testSnapserverShowsWhatPlaysAndSkipsThroughMPD() throws {
        let snapcast = try XCTUnwrap(snapcast)
        // The plug-in on previewd's MPD port first (snapserver then lets the stream be controlled):
        // it starts with snapserver, before previewd listens, and tries again only every 5 s, so on
        // a loaded machine it could come after the first track's 8 s, whose title it then never showed.
        var server = ""
        try eventually(timeout: 20, interval: 0.1) {
            server = try snapcast.rpc("Server.GetStatus")
            return server.contains("\"canControl\":true")
        }
        XCTAssertTrue(server.contains("\"canControl\":true"), "meta_mpd.py never reached previewd's MPD port: \(server.prefix(3000))\n\(snapcast.log)")
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "through snapserver and snapclient")
        var shown = ""
        try eventually(timeout: 20, interval: 0.1) {
            shown = try snapcast.rpc("Server.GetStatus")
            return shown.contains("A Four Forty")
        }
        XCTAssertTrue(shown.contains("\"title\":\"A Four Forty\""), "the title through meta_mpd.py: \(shown.prefix(3000))\n\(snapcast.log)")
        XCTAssertTrue(shown.contains("The Sine Waves"), "the artist")

        mark = recorder.sampleCount
        let answer = try snapcast.rpc("Stream.Control", params: #"{"id":"previewd","command":"next"}"#)
        XCTAssertFalse(answer.contains("\"error\""), answer)
        expectTone(660, after: mark, "Stream.Control next: the next tone through snapclient")
        XCTAssertEqual(try status().index, 1)
    }
}
