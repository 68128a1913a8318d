import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Events and queue editing through previewctl, heard on a null sink.
final class ControlEndToEndTests: SharedServerTestCase {
    private func queueIDs() throws -> [Int?] { try queue().items.map(\.track.trackId) }

    func testWatchPrintsEventsAsTheyHappen() throws {
        let watch = try daemon.ctlInBackground("watch", "--position")
        let json = try daemon.ctlInBackground("--json", "watch")
        XCTAssertTrue(watch.waitUntilWatching() && json.waitUntilWatching(), "subscribed: \(watch.errors) \(json.errors)")
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertTrue(watch.waitFor("queue   7 items"), watch.output)
        XCTAssertTrue(watch.waitFor("track   [1] A Four Forty — The Sine Waves"), watch.output)
        XCTAssertTrue(watch.waitFor("state   playing [1]"), watch.output)
        XCTAssertTrue(watch.waitFor("position 0:01 / 0:"), "a tick each second while playing: \(watch.output)")
        XCTAssertEqual(try daemon.ctl("next").status, 0)
        XCTAssertTrue(watch.waitFor("track   [2] E Six Sixty"), watch.output)
        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        XCTAssertTrue(watch.waitFor("state   paused [2]"), watch.output)
        XCTAssertEqual(try daemon.ctl("volume", "40").status, 0)
        XCTAssertTrue(watch.waitFor("volume  40%"), watch.output)
        XCTAssertEqual(try daemon.ctl("repeat", "all").status, 0)
        XCTAssertTrue(watch.waitFor("modes   repeat all, shuffle off"), watch.output)
        XCTAssertTrue(watch.waitFor("position 0:0"), watch.output)
        XCTAssertTrue(json.waitFor(#""event":"state","id":2,"index":1,"state":"paused""#), json.output)
        for line in json.output.split(separator: "\n") {
            XCTAssertNoThrow(try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)), String(line))
        }
        watch.stop()
        json.stop()
        XCTAssertTrue(daemon.isRunning)
    }

    /// The daemon runs on its own named threads only: the engine loop (main), PulseAudio's mainloop,
    /// curl's and the decoders'. No thread pool of the Swift runtime or libdispatch, whose Linux
    /// pool wakes every second for as long as the process lives.
    func testTheDaemonRunsOnlyItsOwnThreads() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        XCTAssertNotNil(recorder.waitForTone(440, after: 0))
        let watch = try daemon.ctlInBackground("watch", "--position")
        XCTAssertTrue(watch.waitFor("position"), watch.output)
        watch.stop()
        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        XCTAssertEqual(try daemon.ctl("status").status, 0)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertFalse(names.isEmpty)
        for name in names { XCTAssertTrue(name.hasPrefix("previewd"), "a thread that is not previewd's own: \(name) in \(names)") }
    }

    func testClearRemoveAndMoveKeepTheRightTrackPlaying() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first")
        XCTAssertEqual(try daemon.ctl("move", "0", "3").status, 0)
        XCTAssertEqual(try status().index, 3, "the playing track moved with its item")
        XCTAssertEqual(try queueIDs(), [1002, 1003, 1004, 1001, 1005, 3001, 3002])
        expectTone(440, after: recorder.sampleCount, "still the same track after the move")

        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("remove", "3").status, 0)
        expectTone(550, after: mark, "removing the playing track plays the one that took its place")
        XCTAssertEqual(try status().track?.trackId, 1005)

        XCTAssertEqual(try daemon.ctl("remove", "0").status, 0)
        XCTAssertEqual(try status().index, 2, "removing an earlier item shifts the current index")
        XCTAssertEqual(try status().track?.trackId, 1005)
        XCTAssertEqual(try daemon.ctl("remove", "40").status, 1)

        XCTAssertEqual(try daemon.ctl("clear").status, 0)
        let report = try status()
        XCTAssertEqual(report.queueLength, 0)
        XCTAssertEqual(report.state, .idle)
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: recorder.sampleCount), "clear stops the sound")
        XCTAssertEqual(try daemon.ctl("play").status, 1, "nothing to play")
    }

    /// Items keep their ids through moves and removals, and the protocol takes an id wherever it
    /// takes an index: a program holding an id reaches its item whatever others edited meanwhile.
    func testQueueItemsAreReachedByTheirIdsWhateverMovesAroundThem() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let before = try queue()
        let ids = before.items.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "every item has its own id: \(ids)")
        XCTAssertEqual(try status().id, ids[0])
        let version = before.version

        // Another client moves the last item to the top: the current track and its id move down.
        XCTAssertTrue(try daemon.request(#"{"id":1,"cmd":"move","args":{"fromId":\#(ids[4]),"to":0}}"#).contains(#""ok":true"#))
        var now = try queue()
        XCTAssertEqual(now.items.map(\.id), [ids[4]] + ids[0..<4] + ids[5...])
        XCTAssertGreaterThan(now.version, version, "the version moved with the edit")
        XCTAssertEqual(try status().id, ids[0])
        XCTAssertEqual(try status().index, 1)

        // The third item of the search, by its id, wherever it is now.
        let mark = recorder.sampleCount
        XCTAssertTrue(try daemon.request(#"{"id":2,"cmd":"play","args":{"id":\#(ids[2])}}"#).contains(#""ok":true"#))
        expectTone(880, after: mark, "play by id plays that item")
        XCTAssertEqual(try status().id, ids[2])
        XCTAssertEqual(try status().track?.trackId, 1003)

        XCTAssertTrue(try daemon.request(#"{"id":3,"cmd":"remove","args":{"id":\#(ids[1])}}"#).contains(#""ok":true"#))
        now = try queue()
        XCTAssertFalse(now.items.map(\.id).contains(ids[1]))
        XCTAssertEqual(try status().id, ids[2], "removing another item leaves the current one")
        let info = try daemon.request(#"{"id":4,"cmd":"info","args":{"id":\#(ids[0])}}"#)
        XCTAssertTrue(info.contains("A Four Forty"), info)

        let gone = try daemon.request(#"{"id":5,"cmd":"play","args":{"id":\#(ids[1])}}"#)
        XCTAssertTrue(gone.contains("no track with id \(ids[1]) in the queue"), gone)
        XCTAssertEqual(try status().id, ids[2], "a refused id changes nothing")

        // previewctl names items by id too, for scripts.
        XCTAssertEqual(try daemon.ctl("move", "--id", "\(ids[3])", "0").status, 0)
        XCTAssertEqual(try queue().items.first?.id, ids[3])
        XCTAssertEqual(try daemon.ctl("play", "--id", "\(ids[0])").status, 0)
        XCTAssertEqual(try status().id, ids[0])
        XCTAssertEqual(try daemon.ctl("remove", "--id", "\(ids[3])").status, 0)
        XCTAssertFalse(try queue().items.map(\.id).contains(ids[3]))
        XCTAssertEqual(try daemon.ctl("remove", "--id", "\(ids[3])").status, 1, "a removed id is gone for good")
        XCTAssertNotEqual(try daemon.ctl("play", "1", "--id", "\(ids[0])").status, 0, "INDEX or --id, not both")
    }
}
