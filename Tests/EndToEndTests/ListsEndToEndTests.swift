import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Saved lists, the shortlist, export and the history, through previewctl as a listener uses them.
final class ListsEndToEndTests: SharedServerTestCase {
    private func trackIds(_ q: QueueReport) -> [Int] { q.items.map { $0.track.trackId ?? 0 } }

    func testSaveForgetLoadAppendAndBadNames() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "3", "--no-play").status, 0)
        let saved = try daemon.ctl("save", "evening tones")
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(saved.stdout, "saved \"evening tones\": 3 tracks\n")
        XCTAssertTrue(try daemon.ctl("lists").stdout.contains("evening tones  3 tracks"))
        XCTAssertTrue(try daemon.ctl("lists", "evening tones").stdout.contains("A Four Forty"))

        XCTAssertEqual(try daemon.ctl("clear").status, 0)
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("load", "evening tones").status, 0)
        XCTAssertEqual(trackIds(try queue()), [1001, 1002, 1003], "loaded: the queue replaced, in order")
        expectTone(440, after: mark, "a loaded list plays")
        let appended = try JSONDecoder().decode(AddReport.self, from: Data(try daemon.ctl("--json", "load", "evening tones", "--append").stdout.utf8))
        XCTAssertEqual(appended.ids.count, 3)
        XCTAssertEqual(trackIds(try queue()), [1001, 1002, 1003, 1001, 1002, 1003])
        XCTAssertEqual(try daemon.ctl("save", "evening tones", "--append").stdout, "saved \"evening tones\": 9 tracks\n")

        let forgot = try daemon.ctl("forget", "evening tones")
        XCTAssertEqual(forgot.status, 0, forgot.stderr)
        XCTAssertEqual(forgot.stdout, "(no saved lists)\n")
        let gone = try daemon.ctl("load", "evening tones")
        XCTAssertEqual(gone.status, 1)
        XCTAssertTrue(gone.stderr.contains("no list named \"evening tones\""), gone.stderr)
        mark = recorder.sampleCount
        XCTAssertEqual(try status().state, .playing, "a refused load changes nothing")

        for (name, reason) in [(".hidden", "cannot start with \".\""), ("a/b", "cannot contain \"/\""), ("tab\there", "control characters"),
                               (String(repeating: "x", count: 201), "at most 200 bytes")] {
            let refused = try daemon.ctl("save", name)
            XCTAssertEqual(refused.status, 2, "\(name): bad usage")
            XCTAssertTrue(refused.stderr.contains(reason), "\(name): \(refused.stderr)")
        }
        let raw = try daemon.request(#"{"cmd":"save","args":{"name":"../escape"}}"#)
        XCTAssertTrue(raw.contains("bad-argument"), raw)
    }

    func testTheShortlistMarksAndExportsToM3UJSONAndXSPF() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "3").status, 0)
        let marked = try daemon.ctl("mark")
        XCTAssertTrue(marked.stdout.contains("★ marked"), marked.stdout)
        XCTAssertEqual(try daemon.ctl("mark", "2").status, 0)
        XCTAssertEqual(try daemon.ctl("mark", "2").status, 0, "marking twice keeps one")
        XCTAssertTrue(try status().marked)
        XCTAssertTrue(try daemon.ctl("lists").stdout.contains("marked  2 tracks"))
        XCTAssertEqual(try daemon.ctl("unmark").status, 0)
        XCTAssertFalse(try status().marked)

        let m3u = try daemon.ctl("export", "marked", "--format", "m3u")
        XCTAssertEqual(m3u.status, 0, m3u.stderr)
        XCTAssertTrue(m3u.stdout.hasPrefix("#EXTM3U\n"), m3u.stdout)
        XCTAssertTrue(m3u.stdout.contains("#EXTINF:-1,The Sine Waves - A Eight Eighty (Mono)"), m3u.stdout)
        let file = NSTemporaryDirectory() + "previewd-export-\(getpid()).m3u"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try m3u.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let asked = standIn.requestLog.count
        let mpv = try ProcessRunner.run("/usr/bin/mpv", ["--no-config", "--no-video", "--ao=null", "--length=0.5", file])
        XCTAssertEqual(mpv.status, 0, "mpv plays the exported list: \(mpv.stderr)")
        XCTAssertTrue(standIn.requestLog[asked...].contains { $0.contains("/previews/tone-880.m4a") }, "mpv fetched the preview")

        let json = try daemon.ctl("export", "--format", "json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tracks = try XCTUnwrap(object["tracks"] as? [[String: Any]])
        XCTAssertEqual(tracks.count, 3, "the queue when no list is named")
        XCTAssertNotNil(tracks[0]["trackViewUrl"], "the store links")
        XCTAssertNotNil(tracks[0]["collectionViewUrl"])

        let xspf = try daemon.ctl("export", "--format", "xspf")
        let xml = NSTemporaryDirectory() + "previewd-export-\(getpid()).xspf"
        defer { try? FileManager.default.removeItem(atPath: xml) }
        try xspf.stdout.write(toFile: xml, atomically: true, encoding: .utf8)
        XCTAssertEqual(try ProcessRunner.run("/usr/bin/xmllint", ["--noout", xml]).status, 0, xspf.stdout)
        XCTAssertTrue(xspf.stdout.contains("<creator>The Sine Waves</creator>"), xspf.stdout)
        XCTAssertTrue(xspf.stdout.contains("<info>https://"), xspf.stdout)
    }

    /// Three previews heard six seconds, two skipped after one: exactly three entries, in order.
    func testTheHistoryKeepsWhatWasHeardFiveSecondsOrMore() throws {
        // Each item can have been heard at most from the command that started it to the answer of
        // the one that ended it: a bound measured here, whatever the machine's load.
        var spans: [TimeInterval] = []
        var startedAt = Date()
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "5").status, 0)
        for (i, seconds) in [6.0, 1.0, 6.0, 1.0, 6.0].enumerated() {
            // Heard that long: the position (what was heard of the track) says so.
            try waitForStatus(timeout: seconds + 10, "item \(i) heard for \(seconds) s") {
                $0.state == .playing && $0.index == i && $0.positionMs >= Int(seconds * 1_000)
            }
            let sent = Date()
            XCTAssertEqual(try daemon.ctl(i == 4 ? "stop" : "next").status, 0)
            spans.append(Date().timeIntervalSince(startedAt))
            startedAt = sent
        }
        var entries: [HistoryEntry] = []
        try eventually(timeout: 5, interval: 0.05) {
            entries = try JSONDecoder().decode(HistoryReport.self, from: Data(try daemon.ctl("--json", "history").stdout.utf8)).entries
            return entries.count >= 3
        }
        XCTAssertEqual(entries.map(\.trackId), [1001, 1003, 1005])
        for (entry, span) in zip(entries, [spans[0], spans[2], spans[4]]) {
            XCTAssertTrue(entry.secondsHeard >= 5 && Double(entry.secondsHeard) <= span + 0.5, "\(entry.secondsHeard) s heard within \(span) s")
        }
        XCTAssertTrue(entries.allSatisfy { $0.storeUrl?.hasPrefix("https://") == true })
        let human = try daemon.ctl("history", "--limit", "1")
        XCTAssertTrue(human.stdout.contains("The Sine Waves — C# Five Fifty"), human.stdout)
    }
}
