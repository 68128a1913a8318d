import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// `--on-event PROGRAM`: a script records the environment of each run into a folder.
final class EventHookEndToEndTests: DaemonTestCase {
    private var folder = ""

    /// A hook that writes its PREVIEWD_ variables, NUL-separated, to one file per run, and with
    /// `hangOn` set sleeps for a minute on that kind of event.
    private func writeHook(hangOn: String? = nil) throws -> String {
        folder = NSTemporaryDirectory() + "previewd-hook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/runs", withIntermediateDirectories: true)
        let script = folder + "/hook"
        let hang = hangOn.map { "[ \"$PREVIEWD_EVENT\" = \($0) ] && { echo hanging; sleep 60; }\n" } ?? ""
        try """
        #!/bin/sh
        env -0 | grep -z '^PREVIEWD_' > "\(folder)/runs/$(date +%s%N).$PREVIEWD_EVENT"
        echo "ran for $PREVIEWD_EVENT"
        \(hang)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return script
    }

    /// Every run's variables, oldest first.
    private func runs() -> [[String: String]] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/runs")) ?? []).sorted()
        return names.compactMap { FileManager.default.contents(atPath: folder + "/runs/" + $0) }.map { data in
            Dictionary(data.split(separator: 0).compactMap { entry -> (String, String)? in
                let text = String(decoding: entry, as: UTF8.self)
                guard let equals = text.firstIndex(of: "=") else { return nil }
                return (String(text[..<equals]), String(text[text.index(after: equals)...]))
            }, uniquingKeysWith: { _, new in new })
        }
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A track change and the state changes reach the hook with the track's details; a title made of
    /// shell syntax and newlines arrives as the exact text and runs nothing.
    func testTheHookGetsTheDetailsInItsEnvironmentAndNothingRuns() throws {
        let hostile = "$(touch \(NSTemporaryDirectory())pwned-a)`touch \(NSTemporaryDirectory())pwned-b`; touch x\n'\"|&<>*"
        let catalog = #"{"resultCount":1,"results":[{"wrapperType":"track","kind":"song","trackId":77,"artistName":"The Sine Waves","#
            + #""collectionName":"Pure Tones","trackName":"# + String(decoding: try JSONEncoder().encode(hostile), as: UTF8.self)
            + #","trackViewUrl":"https://music.apple.com/us/album/701?i=77","previewUrl":"\#(standIn.baseURL)/previews/tone-440.m4a"}]}"#
        standIn.setFault(.body(Array(catalog.utf8), contentType: "text/javascript"), forPathPrefix: "/search")
        try startOnSharedServer(["--on-event", try writeHook(), "--log-level", "debug"])
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "anything").status, 0)
        expectTone(440, after: mark, "the track plays")
        let track = try XCTUnwrap(eventually(timeout: 15, interval: 0.05) { runs().first { $0["PREVIEWD_EVENT"] == "track" } }, "no track run: \(runs())")
        XCTAssertEqual(track["PREVIEWD_TITLE"], hostile, "the exact title, as data")
        XCTAssertEqual(track["PREVIEWD_ARTIST"], "The Sine Waves")
        XCTAssertEqual(track["PREVIEWD_ALBUM"], "Pure Tones")
        XCTAssertEqual(track["PREVIEWD_TRACK_ID"], "77")
        XCTAssertEqual(track["PREVIEWD_INDEX"], "0")
        XCTAssertEqual(track["PREVIEWD_URL"], "https://music.apple.com/us/album/701?i=77")
        let playing = try XCTUnwrap(eventually(timeout: 15, interval: 0.05) { runs().first { $0["PREVIEWD_EVENT"] == "state" && $0["PREVIEWD_STATE"] == "playing" } })
        XCTAssertEqual(playing["PREVIEWD_TITLE"], hostile)
        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        XCTAssertNotNil(eventually(timeout: 15, interval: 0.05) { runs().first { $0["PREVIEWD_STATE"] == "paused" } })
        for marker in ["pwned-a", "pwned-b"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: NSTemporaryDirectory() + marker), "the title ran \(marker)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "x"))
        _ = daemon.stop()
        XCTAssertTrue(daemon.log.contains("event hook track: ran for track"), "the hook's output is logged: \(daemon.log)")
        daemon = nil
    }

    /// A hook that hangs is ended at its timeout; playback goes on meanwhile and after.
    func testAHookThatHangsIsEndedAndPlaybackGoesOn() throws {
        try startOnSharedServer(["--on-event", try writeHook(hangOn: "state"), "--on-event-timeout", "1"])
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "plays while the hook hangs")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(660, after: mark, "next answers while the hook hangs")
        waitForLog("still running after 1.0 s; ended")
        XCTAssertTrue(daemon.log.contains("event hook state: ran for state"), daemon.log)
        let sleepers = try ProcessRunner.run("/usr/bin/pgrep", ["-f", "sleep 60", "-P", String(daemon.pid)])
        XCTAssertNotEqual(sleepers.status, 0, "nothing of the hook is left: \(sleepers.stdout)")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        expectTone(880, after: mark, "and after it was ended")
    }
}
