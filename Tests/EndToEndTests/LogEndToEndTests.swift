import Foundation
import ITunesStandIn
import PreviewTestSupport
import XCTest

/// previewd's log as a person and as systemd read it: local time on a terminal or in a file,
/// priorities for the journal, and FFmpeg's own messages in it, named by track.
final class LogEndToEndTests: DaemonTestCase {
    /// "2026-11-23 16:04:05.123 previewd info: …"
    private let stamped = try! NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} previewd (debug|info|warning|error): "#)

    func testLinesCarryLocalTimeAndAGoodPreviewMakesFFmpegSayNothing() throws {
        try startOnSharedServer()
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "the first track")
        XCTAssertEqual(daemon.stop(), 0)
        let lines = daemon.log.split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertNotNil(stamped.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        }
        XCTAssertFalse(daemon.log.contains("ffmpeg"), "FFmpeg has nothing to say at the default level:\n\(daemon.log)")
        daemon = nil
    }

    func testFFmpegErrorsNameTheirTrack() throws {
        try startOnSharedServer()
        standIn.setFault(.body(Array("#EXTM3U\n".utf8), contentType: "audio/mp4"), forPathPrefix: "/previews/tone-440")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(660, after: mark, "the next track after the broken one")
        XCTAssertEqual(daemon.stop(), 0)
        let ffmpeg = daemon.log.split(separator: "\n").filter { $0.contains(" ffmpeg ") }
        XCTAssertTrue(ffmpeg.contains { $0.contains("previewd error: ffmpeg mov,mp4,m4a,3gp,3g2,mj2 [track 1001]: ") },
                      "FFmpeg's error about the broken preview, at error level, with its track:\n\(daemon.log)")
        daemon = nil
    }

    /// Names from the network reach the log made safe: no escape sequence, no bidi override.
    func testNetworkTextIsMadeSafeInTheLog() throws {
        try startOnSharedServer()
        let body = #"{"resultCount": 1, "results": [{"wrapperType": "track", "kind": "song", "trackId": 9, "#
            + #""trackName": "Evil\u001b[2J\u001b]0;pwned\u0007", "artistName": "\u202eenoemos", "#
            + #""previewUrl": "\#(standIn.baseURL)/previews/tone-550.m4a"}]}"#
        standIn.setFault(.body(Array(body.utf8), contentType: "text/javascript"), forPathPrefix: "/search")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "anything").status, 0)
        expectTone(550, after: mark, "the track with the hostile name")
        XCTAssertEqual(daemon.stop(), 0)
        XCTAssertTrue(daemon.log.contains("Evil"), daemon.log)
        XCTAssertFalse(daemon.log.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0 == "\u{202E}" },
                       "terminal escapes reached the log")
        daemon = nil
    }

    /// Lines at warning or above that an everyday session may show, each with what it asks of the
    /// user. Empty: an everyday session asks nothing of anyone.
    static let everydayAllowList: [(line: String, action: String)] = []

    /// An everyday session: a search, taps, skips, search-as-you-type (the web remote's looks without
    /// queueing, each replacing the last answer and the heads fetched for it), and the sound server
    /// restarted under a playing track. Nothing of it is the user's to act on, so the log says
    /// nothing at warning or error (but the allow-list).
    func testAnEverydaySessionLogsNothingAtWarningOrAbove() throws {
        let server = try PulseServer()
        defer { server.stop() }
        try startOnPrivateServer(server)

        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)           // a search
        expectTone(440, after: mark, "the search's first track")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("play", "2").status, 0)                      // a tap
        expectTone(880, after: mark, "the tapped track")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)                           // skips
        expectTone(1100, after: mark, "next")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("prev").status, 0)
        expectTone(880, after: mark, "prev")
        for typed in ["s", "si", "sin", "sine", "sine w"] {                         // search-as-you-type
            _ = try daemon.ctl("search", "--no-queue", typed)
        }
        try checkTheServerDiesAndComesBack(server)                                 // a sound-server restart
        XCTAssertEqual(daemon.stop(), 0)
        let loud = daemon.log.split(separator: "\n").map(String.init).filter { $0.contains(" previewd warning: ") || $0.contains(" previewd error: ") }
        let unexplained = loud.filter { line in !Self.everydayAllowList.contains { line.contains($0.line) } }
        XCTAssertEqual(unexplained, [], "lines at warning or above that ask nothing of the user:\n\(daemon.log)")
        daemon = nil
    }

    func testUnderSystemdLinesCarryPrioritiesAndNoTime() throws {
        guard let previewd = BuildProducts.path("previewd") else { throw TestSupportError("previewd not built") }
        let directory = NSTemporaryDirectory() + "previewd-journal-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let logFile = directory + "/stderr", socket = directory + "/previewd.sock"
        FileManager.default.createFile(atPath: logFile, contents: nil)
        var info = stat()
        XCTAssertEqual(stat(logFile, &info), 0)
        // systemd names the stream it gives a service as stderr: device:inode.
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        let child = try ChildProcess("/bin/sh", ["-c", #"exec "$0" "$@" 2>>"$LOG""#, previewd, "--socket", socket,
                                                 "--api-base", standIn.baseURL, "--log-level", "debug"],
                                     environment: environment.merging(["LOG": logFile]) { $1 })
        XCTAssertTrue(eventually(timeout: 20) { FileManager.default.fileExists(atPath: socket) || !child.isRunning })
        child.signal(SIGTERM)
        XCTAssertEqual(child.wait(timeout: 20), 0)
        let lines = try String(contentsOfFile: logFile, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("<6>previewd ") && $0.contains("listening on") }, lines.joined(separator: "\n"))
        for line in lines {
            XCTAssertTrue(["<3>", "<4>", "<6>", "<7>"].contains(String(line.prefix(3))), String(line))
            XCTAssertFalse(line.contains("previewd info:"), "no time and level words under the journal: \(line)")
        }
    }
}
