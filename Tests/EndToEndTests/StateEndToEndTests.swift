import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Nothing lost: the session given back after a SIGTERM and after a kill -9 at any moment, faulty
/// files moved aside, a full disk and a read-only folder survived, with real processes and files.
final class StateEndToEndTests: DaemonTestCase {
    private var folder = ""
    private var environment: [String: String] = [:]
    private var statePath: String { folder + "/state/previewd/state.jsonl" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = NSTemporaryDirectory() + "previewd-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": folder + "/state", "XDG_DATA_HOME": folder + "/data"]) { $1 }
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// previewd again on the same folders, once it has given the state back.
    private func restart(kill: Bool = false) throws {
        if kill {
            Glibc.kill(daemon.pid, SIGKILL)
            _ = daemon.stop()
        } else {
            XCTAssertEqual(daemon.stop(), 0, daemon.log)
        }
        daemon = try DaemonProcess(arguments: daemonArguments(), environment: environment)
        waitForLog("state restored")
    }

    private func trackIds(_ q: QueueReport) -> [Int] { q.items.map { $0.track.trackId ?? 0 } }

    func testARestartGivesTheSessionBackPausedWhereItWas() throws {
        try startOnSharedServer(environment: environment)
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        for edit in [["add", "--ids", "2003", "--at", "2"], ["remove", "5"], ["move", "0", "6"], ["volume", "40"], ["repeat", "all"], ["shuffle", "on"], ["output", "off"]] {
            XCTAssertEqual(try daemon.ctl(edit).status, 0, "\(edit)")
        }
        XCTAssertEqual(try daemon.ctl("play", "3").status, 0)
        try waitForStatus(timeout: 15) { $0.positionMs >= 4_000 }
        let before = try queue()
        XCTAssertEqual(trackIds(before), [1002, 2003, 1003, 1004, 3001, 3002, 1001])
        let orderBefore = before.order?.compactMap { id in before.items.first { $0.id == id }?.track.trackId }
        let read = Date()
        let playedTo = try status().positionMs

        try restart()
        // Where it was stopped: after the last reading, by no more than the time since (a moment's slack).
        let stoppedBy = playedTo + millisecondsSince(read) + 500
        let after = try queue()
        XCTAssertEqual(trackIds(after), trackIds(before), "the same queue (ids may change)")
        XCTAssertEqual(after.order?.compactMap { id in after.items.first { $0.id == id }?.track.trackId }, orderBefore, "the same shuffled order")
        let now = try waitForStatus("restored paused") { $0.state == .paused }
        XCTAssertEqual(now.state, .paused, "restored paused")
        XCTAssertEqual(now.index, 3)
        XCTAssertEqual(now.track?.trackId, 1004)
        XCTAssertTrue((playedTo - 1_000...stoppedBy).contains(now.positionMs), "at about \(playedTo) ms (by \(stoppedBy)): \(now.positionMs)")
        XCTAssertEqual(now.volume, 40)
        XCTAssertEqual(now.repeat, .all)
        XCTAssertTrue(now.shuffle)
        XCTAssertFalse(now.outputEnabled, "the output kept silent")
        XCTAssertEqual(try daemon.ctl("output", "on").status, 0)
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        expectTone(1100, after: mark, "resume plays item 3 from where it was")
        let mode = try FileManager.default.attributesOfItem(atPath: statePath)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder + "/state/previewd")[.posixPermissions] as? Int
        XCTAssertEqual(folderMode, 0o700)
    }

    /// 30 rounds of edits, each ended by a kill -9 at a random moment: every restart loads, and
    /// what it gives back is a queue that existed within about a second before the kill: never a
    /// mixture of two, never empty when it was not.
    func testAKillAtAnyMomentLeavesAQueueThatExistedJustBefore() throws {
        try startOnSharedServer(environment: environment)
        waitForLog("state restored")
        let look = try JSONDecoder().decode(CatalogReport.self, from: Data(try daemon.ctl("--json", "search", "sine waves", "--no-queue").stdout.utf8))
        let tracks = try look.results.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        var random = SystemRandomNumberGenerator()
        func queueNow() throws -> [Int] {
            trackIds(try JSONDecoder().decode(ControlResponseOf<QueueReport>.self, from: Data(try daemon.request(#"{"cmd":"queue"}"#).utf8)).result)
        }
        for round in 0..<30 {
            var seen: [(at: Date, queue: [Int])] = [(Date(), try queueNow())]
            let end = Date(timeIntervalSinceNow: Double.random(in: 0.05...1.5, using: &random))
            while Date() < end {
                let length = seen.last!.queue.count
                let line: String
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: line = #"{"cmd":"add","args":{"tracks":[\#(tracks.randomElement(using: &random)!)],"at":\#(Int.random(in: 0...length, using: &random))}}"#
                case 4..<6 where length > 0: line = #"{"cmd":"remove","args":{"index":\#(Int.random(in: 0..<length, using: &random))}}"#
                case 6..<9 where length > 1: line = #"{"cmd":"move","args":{"from":\#(Int.random(in: 0..<length, using: &random)),"to":\#(Int.random(in: 0..<length, using: &random))}}"#
                case 9 where length > 12: line = #"{"cmd":"clear"}"#
                default: line = #"{"cmd":"add","args":{"tracks":[\#(tracks[0])]}}"#
                }
                XCTAssertTrue(try daemon.request(line).contains("\"ok\":true"), line)
                seen.append((Date(), try queueNow()))
            }
            let killedAt = Date()
            try restart(kill: true)
            let restored = try queueNow()
            // What the queue was at some moment of the last 1.5 s: a snapshot taken in it, or the last one before it.
            let window = killedAt.addingTimeInterval(-1.5)
            let allowed = seen.filter { $0.at >= window }.map(\.queue) + [seen.last { $0.at < window }?.queue].compactMap { $0 }
            XCTAssertTrue(allowed.contains(restored), "round \(round): restored \(restored), not one of the queues of the last 1.5 s \(allowed)")
            XCTAssertFalse(daemon.log.contains("moved aside"), "round \(round): a kill never leaves a torn file: \(daemon.log)")
        }
    }

    func testFaultyFilesAreMovedAsideWithOneWarningAndPreviewdStartsWithWhatItCouldRead() throws {
        try startOnSharedServer(environment: environment)
        waitForLog("state restored")
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        XCTAssertEqual(try daemon.ctl("save", "kept").status, 0)
        XCTAssertEqual(daemon.stop(), 0)
        let good = try String(contentsOfFile: statePath, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(good.count, 8, "a header and seven tracks")
        let header = good[0]
        let cases: [(String, String, Int, Int)] = [
            ("corrupt", "this is not previewd's state\n\u{0}\u{1}", 0o600, 0),
            ("truncated", good.prefix(4).joined(separator: "\n") + "\n" + String(good[4].prefix(20)), 0o600, 3),
            ("of a later previewd", header.replacingOccurrences(of: "\"format\":1", with: "\"format\":99") + "\n" + good[1...].joined(separator: "\n") + "\n", 0o600, 0),
            ("writable by others", good.joined(separator: "\n") + "\n", 0o666, 0),
        ]
        for (what, content, mode, restoredCount) in cases {
            try? FileManager.default.removeItem(atPath: statePath)
            FileManager.default.createFile(atPath: statePath, contents: Data(content.utf8), attributes: [.posixPermissions: mode])
            chmod(statePath, mode_t(mode))
            daemon = try DaemonProcess(arguments: daemonArguments(), environment: environment)
            waitForLog("state restored")
            XCTAssertEqual(try status().queueLength, restoredCount, "\(what): what could be read")
            XCTAssertEqual(daemon.log.components(separatedBy: "moved aside").count - 1, 1, "\(what): one warning: \(daemon.log)")
            let aside = try FileManager.default.contentsOfDirectory(atPath: folder + "/state/previewd").filter { $0.hasPrefix("state.jsonl.corrupt-") }
            XCTAssertEqual(aside.count, 1, "\(what): moved aside, kept for a person to look at")
            for name in aside { try FileManager.default.removeItem(atPath: folder + "/state/previewd/" + name) }
            XCTAssertEqual(daemon.stop(), 0, "\(what): \(daemon.log)")
        }
        // A list file in pieces: the others are still listed, it is moved aside.
        let lists = folder + "/data/previewd/lists"
        FileManager.default.createFile(atPath: lists + "/broken.jsonl", contents: Data("{\"nope\n".utf8), attributes: [.posixPermissions: 0o600])
        daemon = try DaemonProcess(arguments: daemonArguments(), environment: environment)
        let listed = try daemon.ctl("lists")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("kept  7 tracks"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("broken"), listed.stdout)
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: lists).contains { $0.hasPrefix("broken.jsonl.corrupt-") })
    }

    func testAStateFolderThatCannotBeMadeIsToldAndPreviewdRunsWithoutIt() throws {
        FileManager.default.createFile(atPath: folder + "/a-file", contents: Data("x".utf8))
        try startOnSharedServer(["--state-dir", folder + "/a-file/state"], environment: environment)
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "2").status, 0, "previewd runs")
        XCTAssertTrue(daemon.log.contains("state not kept"), daemon.log)
    }

    /// The state folder on a tiny tmpfs in previewd's own mount namespace: a write that does not
    /// fit is told once, playing goes on, the old file stays whole; read-only, the same.
    func testAFullDiskAndAReadOnlyFolderLoseNothingAndStopNothing() throws {
        let state = folder + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let launcher = ["/usr/bin/unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=12k,mode=0700 tmpfs \"$0\" && exec \"$@\"", state]
        try startOnSharedServer(environment: environment, launcher: launcher)
        waitForLog("state restored")
        let inside = "/proc/\(daemon.pid)/root" + statePath
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "3").status, 0)
        eventually(timeout: 5, interval: 0.05) { (try? String(contentsOfFile: inside, encoding: .utf8))?.split(separator: "\n").count == 4 }
        let small = try String(contentsOfFile: inside, encoding: .utf8)
        XCTAssertEqual(small.split(separator: "\n").count, 4, "three tracks fit")

        XCTAssertEqual(try daemon.ctl("search", "sine", "--append", "--limit", "200").status, 0)
        XCTAssertEqual(try daemon.ctl("search", "sine", "--append", "--limit", "200").status, 0)
        waitForLog("not written", timeout: 5)
        XCTAssertEqual(daemon.log.components(separatedBy: "not written").count - 1, 1, "told once: \(daemon.log)")
        XCTAssertEqual(try String(contentsOfFile: inside, encoding: .utf8), small, "the old file is whole")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("next").status, 0, "previewd goes on")
        expectTone(660, after: mark, "playing goes on")

        XCTAssertEqual(try daemon.ctl("clear").status, 0)
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--limit", "2", "--no-play").status, 0)
        eventually(timeout: 5, interval: 0.05) { (try? String(contentsOfFile: inside, encoding: .utf8))?.split(separator: "\n").count == 3 }
        XCTAssertEqual(try String(contentsOfFile: inside, encoding: .utf8).split(separator: "\n").count, 3, "the next write that fits is made")

        XCTAssertEqual(try ProcessRunner.run("/usr/bin/nsenter", ["-t", "\(daemon.pid)", "-m", "mount", "-o", "remount,ro", state]).status, 0)
        let written = try String(contentsOfFile: inside, encoding: .utf8)
        XCTAssertEqual(try daemon.ctl("volume", "30").status, 0)
        eventually(timeout: 5, interval: 0.05) { daemon.log.components(separatedBy: "not written").count >= 3 }
        XCTAssertTrue(daemon.log.contains("Read-only file system"), daemon.log)
        XCTAssertEqual(try String(contentsOfFile: inside, encoding: .utf8), written, "the old file is whole")
        XCTAssertEqual(try status().volume, 30, "commands go on")
    }
}

/// A response whose result is decoded as `Report`.
private struct ControlResponseOf<Report: Decodable>: Decodable {
    var ok: Bool
    var result: Report
}
