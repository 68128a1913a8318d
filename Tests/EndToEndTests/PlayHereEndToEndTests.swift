import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// "Play here" (issue 53) with a real previewd on a null sink whose monitor is recorded, the page
/// played by the test over the control socket with the messages previewd-web sends for it
/// (`playhere` claims, reports, ends; `audio` requests, as its element fetches): a page gone silent
/// is let go after `--page-silence` (shortened here to 3 s), playback paused at the position it
/// reached and resumed from there on the box's sink; a locked phone, whose element keeps fetching
/// while its JavaScript sleeps, is not gone; and while a page keeps the clock the box's end of a
/// track waits for the page's.
final class PlayHereEndToEndTests: DaemonTestCase {
    private let silenceSeconds = 3.0
    private var folder = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = NSTemporaryDirectory() + "previewd-playhere-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": folder + "/state", "XDG_DATA_HOME": folder + "/data"]) { $1 }
        try startOnSharedServer(["--page-silence", String(silenceSeconds)], environment: environment)
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Sends a request line and fails unless previewd answers ok.
    @discardableResult
    private func send(_ command: String, _ args: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let answer = try daemon.request(#"{"id":1,"cmd":"\#(command)","args":\#(args)}"#)
        XCTAssertTrue(answer.replacingOccurrences(of: " ", with: "").contains(#""ok":true"#), "\(command) \(args): \(answer)", file: file, line: line)
        return answer
    }

    /// The page's report, as playhere.js sends it about once a second while its element plays.
    private func report(_ page: String, item: Int, positionMs: Int) throws {
        try send("playhere", #"{"page":"\#(page)","id":\#(item),"positionMs":\#(positionMs),"playing":true}"#)
    }

    func testAPageGoneSilentPausesAtThePositionItReachedAndPlayResumesThereOnTheBox() throws {
        _ = try send("lookup", #"{"id":[1001,1002],"play":false}"#)   // 440 Hz for 8 s, then 660 Hz
        try send("playhere", #"{"page":"gone","on":true}"#)             // here only
        XCTAssertEqual(try daemon.ctl("play").status, 0)
        let playing = try waitForStatus("the queue plays") { $0.state == .playing && $0.id != nil && $0.playHere?.page == "gone" }
        let item = try XCTUnwrap(playing.id)

        // The page plays from 1 s on (it was started there) and reports for a second, then says
        // nothing more: no report, no audio request (the phone left the network).
        var (lastReported, silentFrom) = (0, Date())
        let pageStarted = Date()
        while millisecondsSince(pageStarted) < 1_000 {
            (lastReported, silentFrom) = (1_000 + millisecondsSince(pageStarted), Date())
            try report("gone", item: item, positionMs: lastReported)
            usleep(300_000)   // the page's own pace (it reports about once a second), not a wait for previewd
        }
        XCTAssertEqual(recorder.toneSequence(after: 0), [], "here only: the box's sink is silent while the page plays")
        XCTAssertEqual(try status().state, .playing, "a page heard within the limit plays on")

        let paused = try waitForStatus(timeout: silenceSeconds * 4, "the page silent for longer than --page-silence is let go") {
            $0.state == .paused && $0.playHere == nil
        }
        XCTAssertGreaterThanOrEqual(millisecondsSince(silentFrom), Int(silenceSeconds * 1000), "let go before the limit")
        waitForLog("play here: the page said nothing for 3.0 s")
        XCTAssertEqual(paused.id, item, "the same track, paused")
        // Where the page reached: its last report, run on while it played (at most the time since).
        let reached = paused.positionMs
        XCTAssertGreaterThanOrEqual(reached, lastReported)
        XCTAssertLessThanOrEqual(reached, lastReported + millisecondsSince(silentFrom))
        let duration = try XCTUnwrap(paused.durationMs)
        XCTAssertLessThan(reached, duration, "the 8 s track is not over: the test's timings went wrong")
        XCTAssertEqual(recorder.toneSequence(after: 0), [], "the box's outputs are back, but paused: the speakers do not start by themselves")

        // `play` resumes on the box's sink from there: the 440 Hz tone sounds for the rest of the
        // track only (its length measured on the monitor, in samples), then the next track.
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("play").status, 0)
        let resumed = try XCTUnwrap(recorder.waitForTone(440, after: mark), "play after the page was gone: \(recorder.toneSequence(after: mark))")
        let next = try XCTUnwrap(recorder.waitForTone(660, after: resumed), "the next track: \(recorder.toneSequence(after: mark))")
        // The 440 Hz windows up to the next track (a dropout on a loaded machine takes some away;
        // a silence at the join adds none): the rest of the track, not the whole nor another part.
        let heardMs = milliseconds(of: 440, from: resumed, to: next)
        XCTAssertLessThanOrEqual(heardMs, duration - reached + 300, "the box resumed at \(reached) ms of \(duration) but played on longer")
        XCTAssertGreaterThanOrEqual(heardMs, duration - reached - 700, "the box resumed at \(reached) ms of \(duration) but played less")
    }

    /// Milliseconds of `hz` heard on the monitor between samples `start` and `end`, in 50 ms windows.
    private func milliseconds(of hz: Double, from start: Int, to end: Int) -> Int {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(recorder.sampleRate))
        let windows = stride(from: start, to: end - recorder.window, by: recorder.window).filter {
            detector.dominantTone(in: recorder.samples(in: $0..<$0 + recorder.window)[...]) == hz
        }
        return windows.count * recorder.window * 1000 / recorder.sampleRate
    }

    func testALockedPhoneThatFetchesItsAudioIsNotGoneAndTheBoxsEndWaitsForThePages() throws {
        _ = try send("lookup", #"{"id":[3001,3002],"play":false}"#)   // 770 Hz for 2 s, then 990 Hz for 2 s
        try send("playhere", #"{"page":"phone","on":true}"#)
        XCTAssertEqual(try daemon.ctl("play").status, 0)
        let playing = try waitForStatus("the queue plays") { $0.state == .playing && $0.id != nil && $0.playHere?.page == "phone" }
        let (first, second) = (try XCTUnwrap(playing.id), try XCTUnwrap(playing.nextId))
        let said = try daemon.ctl("status").stdout
        XCTAssertTrue(said.contains("playing on a page (here only)"), "previewctl status says where it plays: \(said)")
        try report("phone", item: first, positionMs: 0)

        // Locked: the page's JavaScript sleeps (no report) while its element plays on and fetches
        // (an `audio` request every half second), for half as long again as the limit. The box's copy of the 2 s
        // track ends meanwhile: it does not advance previewd (the page keeps the clock).
        let locked = Date()
        while millisecondsSince(locked) < Int(silenceSeconds * 1_500) {
            _ = try send("audio", #"{"id":\#(second),"offset":0}"#)
            usleep(500_000)   // the element's pace, not a wait for previewd
        }
        let held = try status()
        XCTAssertEqual(held.playHere?.page, "phone", "a page that keeps fetching its audio is not gone; it logged:\n\(daemon.log)")
        XCTAssertEqual(held.state, .playing)
        XCTAssertEqual(held.id, first, "the box's copy ended seconds ago, but the page's end advances, not the box's")
        XCTAssertEqual(held.positionMs, held.durationMs, "the page's clock, run on from its report, stands at the track's end")
        XCTAssertFalse(daemon.log.contains("the page said nothing"), daemon.log)

        // The page's element ends (its `ended` is delivered while locked): previewd advances, once;
        // the same end again (a late one) changes nothing.
        try send("playhere", #"{"page":"phone","ended":\#(first)}"#)
        try waitForStatus("the page's end advances previewd") { $0.id == second && $0.playHere?.page == "phone" }
        try send("playhere", #"{"page":"phone","ended":\#(first)}"#)
        XCTAssertEqual(try status().id, second, "a late end of an item previewd left changes nothing")
        XCTAssertEqual(recorder.toneSequence(after: 0), [], "here only: the box's sink stayed silent")

        // Play here off: the box's sink sounds again, on the track previewd plays.
        let mark = recorder.sampleCount
        try send("playhere", #"{"page":"phone","on":false}"#)
        expectTone(990, after: mark, "the speakers back after Play here off")
        XCTAssertNil(try status().playHere)
    }
}
