import Foundation
import ITunesStandIn
import PreviewCore
import PreviewTestSupport
import XCTest

/// `previewctl player` driven the way a person drives a terminal: tmux with a fixed size runs it
/// against a real previewd on the null sink; keys go in, the screen and the sound are checked. And
/// `open`, the indicator and the status bar, which also care whether they are on a terminal.
final class PlayerViewEndToEndTests: SharedServerTestCase {
    private var pane: TerminalPane?

    override func tearDown() {
        pane?.close()
        super.tearDown()
    }

    /// The environment of a colour terminal (the test runner's NO_COLOR left out).
    private var terminalEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NO_COLOR")
        environment["COLORTERM"] = "truecolor"
        return environment
    }

    /// A pane of `columns`×`rows` running `previewctl ARGUMENTS`, then saying how it exited.
    private func startPane(_ arguments: [String], columns: Int = 80, rows: Int = 24) throws -> TerminalPane {
        let previewctl = try XCTUnwrap(BuildProducts.path("previewctl"))
        let line = ([previewctl, "--socket", daemon.socketPath] + arguments).map(TerminalPane.quoted).joined(separator: " ")
        let pane = try TerminalPane(line + "; echo EXITED $?; exec sleep 600", columns: columns, rows: rows, environment: terminalEnvironment)
        self.pane = pane
        return pane
    }

    func testThePlayerShowsTheTrackFollowsTheKeysAndGivesTheTerminalBack() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result")
        let pane = try startPane(["player"])
        let first = pane.waitFor { $0.contains("A Four Forty") && $0.contains("The Sine Waves") && $0.contains("━") }
        XCTAssertNotNil(first, "title, artist and position bar: \(pane.capture())")
        XCTAssertEqual(pane.value("#{alternate_on}"), "1", "the view is on the alternate screen")
        XCTAssertTrue(pane.waitFor(timeout: 5) { $0.contains("0:01") || $0.contains("0:02") } != nil, "the position moves with the music")

        mark = recorder.sampleCount
        pane.send("n")
        XCTAssertTrue(pane.waitFor("E Six Sixty"), "n shows the next title: \(pane.capture())")
        expectTone(660, after: mark, "n plays the next track")

        mark = recorder.sampleCount
        pane.send("Space")
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: mark), "space pauses")
        XCTAssertTrue(pane.waitFor("paused"))
        mark = recorder.sampleCount
        pane.send("Space")
        expectTone(660, after: mark, "space resumes")

        pane.send("/")
        pane.send("brief", literal: true)
        XCTAssertTrue(pane.waitFor("search: brief"), "the search being typed: \(pane.capture())")
        pane.send("Enter")
        // The results view: a table one browses; the queue stays as it was until asked.
        // (At 80 columns beside the artwork the table keeps its title and artist columns.)
        XCTAssertNotNil(pane.waitFor { $0.contains("title") && $0.contains("artist") && $0.contains("Brief Nine Ninety") },
                        "the search's results: \(pane.capture())")
        XCTAssertEqual(try status().queueLength, 7, "a search into the results leaves the queue")
        pane.send("R")
        // The new queue's own header ([1/2]): "Brief Seven Seventy" alone is no sign, it was on
        // screen already, in the results.
        XCTAssertNotNil(pane.waitFor { $0.contains("[1/2]") && $0.contains("Brief Seven Seventy") },
                        "R: the results as the queue: \(pane.capture())")
        XCTAssertEqual(try status().queueLength, 2, "R replaced the queue")

        pane.resize(columns: 50, rows: 15)
        // The whole redraw at the new size, its key line last (a capture may come mid-redraw).
        let small = try XCTUnwrap(pane.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count <= 16 && screen.contains("Brief") && lines.contains { $0.hasPrefix("space play/pause") }
        }, "the player at 50×15: \(pane.capture())")
        let rows = small.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(rows.allSatisfy { $0.count <= 50 }, small)
        XCTAssertTrue(rows.contains { $0.hasPrefix("space play/pause") }, "the key line at the bottom: \(small)")
        XCTAssertFalse(small.contains("E Six Sixty"), "nothing left of the earlier screens: \(small)")

        pane.send("q")
        XCTAssertTrue(pane.waitFor("EXITED 0"), pane.capture())
        XCTAssertEqual(pane.value("#{alternate_on}"), "0", "back on the normal screen")
        XCTAssertEqual(pane.value("#{cursor_flag}"), "1", "the cursor shows again")
        XCTAssertTrue(daemon.isRunning)
    }

    func testACrashOfTheViewStillGivesTheTerminalBack() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let pane = try startPane(["player"], columns: 40, rows: 12)
        XCTAssertTrue(pane.waitFor("A Four Forty"), "the smallest size shows the title: \(pane.capture())")
        let shell = pane.value("#{pane_pid}")
        let child = try ProcessRunner.run(try XCTUnwrap(ProcessRunner.which("pgrep")), ["-P", shell, "previewctl"], timeout: 10)
        let pid = try XCTUnwrap(Int32(child.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "previewctl's pid: \(child)")
        kill(pid, SIGSEGV)
        XCTAssertTrue(pane.waitFor("EXITED 139"), "it died of the signal: \(pane.capture())")
        XCTAssertEqual(pane.value("#{alternate_on}"), "0")
        XCTAssertEqual(pane.value("#{cursor_flag}"), "1")
    }

    /// Ctrl-Z under a shell with job control: the view stops with the terminal given back (the shell
    /// reads a line, echoed), and `fg` brings it back following previewd as before.
    func testCtrlZGivesTheTerminalBackAndFgTakesItAgain() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let previewctl = try XCTUnwrap(BuildProducts.path("previewctl"))
        let view = [previewctl, "--socket", daemon.socketPath, "player"].map(TerminalPane.quoted).joined(separator: " ")
        let script = "set -m; \(view); echo STOPPED $?; read -r line; echo TYPED $line; read -r _; fg >/dev/null; echo EXITED $?; exec sleep 600"
        let pane = try TerminalPane("bash --norc --noprofile -c " + TerminalPane.quoted(script), columns: 80, rows: 24,
                                    environment: terminalEnvironment)
        self.pane = pane
        XCTAssertTrue(pane.waitFor("A Four Forty"), pane.capture())

        pane.send("C-z")
        XCTAssertTrue(pane.waitFor("STOPPED 147"), "stopped (SIGSTOP), the shell went on: \(pane.capture())")
        XCTAssertEqual(pane.value("#{alternate_on}"), "0", "the normal screen while stopped")
        XCTAssertEqual(pane.value("#{cursor_flag}"), "1")
        pane.send("hello", literal: true)
        pane.send("Enter")
        let typed = try XCTUnwrap(pane.waitFor { $0.contains("TYPED hello") }, pane.capture())
        XCTAssertTrue(typed.split(separator: "\n").contains("hello"), "the shell's line was echoed: \(typed)")
        pane.send("Enter")   // on to `fg`

        // The whole view again: a capture may catch a frame half drawn, so the bar is waited for too.
        let bar = #"\d:\d\d [━─]+ \d:\d\d"#
        let back = try XCTUnwrap(pane.waitFor { $0.contains("▶ playing") && !$0.contains("TYPED") && $0.range(of: bar, options: .regularExpression) != nil },
                                 "fg, the view with its position bar: \(pane.capture())")
        XCTAssertTrue(back.contains("The Sine Waves"), back)
        XCTAssertEqual(pane.value("#{alternate_on}"), "1", "the view took the screen again")
        pane.send("Space")
        XCTAssertTrue(pane.waitFor("paused"), "keys and events work after fg: \(pane.capture())")
        XCTAssertEqual(try status().state, .paused)
        pane.send("q")
        XCTAssertTrue(pane.waitFor("EXITED 0"), pane.capture())
        XCTAssertEqual(pane.value("#{alternate_on}"), "0")
    }

    /// Keys typed faster than previewd's events come back each count from the state the key
    /// before made (issue 55: `r r` from off gave `all`, `s s` gave `on`).
    func testEachKeyCountsFromTheStateThePreviousKeyMade() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves", "--no-play").status, 0)
        let pane = try startPane(["player"])
        XCTAssertTrue(pane.waitFor("A Four Forty"), pane.capture())
        pane.send("rr", literal: true)
        try waitForStatus("r r from off is one") { $0.repeat == .one }
        pane.send("ssr", literal: true)   // the last r (one → off) tells that both s were taken
        try waitForStatus("s s is shuffle off again") { $0.repeat == .off }
        XCTAssertFalse(try status().shuffle, "s s leaves shuffle as it was")
        pane.send("q")
        XCTAssertTrue(pane.waitFor("EXITED 0"), pane.capture())
    }

    /// The cursor: Enter plays the row under it (heard), `d` removes, `K` moves, ← → seek; a
    /// search's results are browsed and one plays after the current track, another is added.
    func testTheCursorPlaysRemovesAndMovesRowsAndTheResultsPlayWithoutReplacingTheQueue() throws {
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "first result")
        let pane = try startPane(["player"], columns: 100, rows: 30)
        XCTAssertTrue(pane.waitFor("A Four Forty"), pane.capture())
        mark = recorder.sampleCount
        pane.send("j")
        pane.send("j")
        XCTAssertTrue(pane.waitFor { $0.contains("▸ A Eight Eighty") } != nil, "the row's details under the list: \(pane.capture())")
        pane.send("Enter")
        expectTone(880, after: mark, "Enter plays the row under the cursor")
        try waitForStatus("item 2 current") { $0.index == 2 }

        let before = try queue().items.map(\.track.trackId)
        pane.send("Home")
        pane.send("d")
        try waitFor("d removed the first row") { try self.queue().items.count == before.count - 1 }
        XCTAssertEqual(try queue().items.map(\.track.trackId), Array(before.dropFirst()))
        pane.send("End")
        pane.send("K")
        try waitFor("K moved the last row up") { try self.queue().items.map(\.track.trackId).suffix(2) == [before.last!, before[before.count - 2]] }

        let at = try status().positionMs
        pane.send("Right")
        try waitForStatus(timeout: 3, "→ seeks 5 s on") { $0.positionMs >= at + 5_000 || $0.index != 1 }

        pane.send("/")
        pane.send("brief", literal: true)
        pane.send("Enter")
        XCTAssertNotNil(pane.waitFor { $0.contains("released") && $0.contains("Brief Nine Ninety") }, pane.capture())
        let length = try status().queueLength
        pane.send("j")
        mark = recorder.sampleCount
        pane.send("Enter")
        expectTone(990, after: mark, "Enter on a result plays it")
        try waitForStatus("the result after the current track, the queue kept") { $0.queueLength == length + 1 && $0.track?.trackId == 3002 }
        pane.send("k")
        pane.send("a")
        try waitFor("a added the result at the end") { try self.queue().items.last?.track.trackId == 3001 }
        pane.send("Tab")
        XCTAssertNotNil(pane.waitFor { $0.contains("Brief Seven Seventy — The Sine Waves") }, "Tab: the queue's rows again: \(pane.capture())")
        pane.send("q")
        XCTAssertTrue(pane.waitFor("EXITED 0"), pane.capture())
    }

    func testWithoutATerminalThePlayerSaysSoAndExits2() throws {
        let result = try daemon.ctl("player")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("needs a terminal"), result.stderr)
    }

    /// A folder whose `bin/xdg-open` writes its arguments to `opened` in it, and an environment that
    /// finds that one first. The caller removes the folder.
    private func standInOpener() throws -> (folder: String, environment: [String: String]) {
        let folder = NSTemporaryDirectory() + "previewd-open-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
        let opener = folder + "/bin/xdg-open"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(folder)/opened\n".write(toFile: opener, atomically: true, encoding: .utf8)
        chmod(opener, 0o755)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = folder + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment.removeValue(forKey: "BROWSER")
        return (folder, environment)
    }

    func testOpenHandsTheStorePageToXdgOpenOrPrintsIt() throws {
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        let (folder, openerEnvironment) = try standInOpener()
        var environment = openerEnvironment
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertEqual(try daemon.ctl(["open"], environment: environment).status, 0)
        let opened = try String(contentsOfFile: folder + "/opened", encoding: .utf8)
        XCTAssertEqual(opened, "https://music.apple.com/us/album/701?i=1001&uo=4\n", "xdg-open got the current track's store page")

        XCTAssertEqual(try daemon.ctl(["open", "1"], environment: environment).status, 0)
        XCTAssertEqual(try String(contentsOfFile: folder + "/opened", encoding: .utf8), "https://music.apple.com/us/album/701?i=1002&uo=4\n")

        environment["PATH"] = folder + "/empty"
        let printed = try daemon.ctl(["open"], environment: environment)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout, "https://music.apple.com/us/album/701?i=1001&uo=4\n", "no opener: the address is printed")
        XCTAssertEqual(try daemon.ctl(["open", "99"], environment: environment).status, 1)
    }

    /// A store URL from the catalog that is a file, a script or carries what a terminal acts on (a C1
    /// CSI, a bidirectional override) is neither handed to a program nor printed as is.
    func testOpenRefusesAStoreURLThatIsNotAPlainWebAddress() throws {
        let hostile = ["file:///etc/passwd", "javascript:alert(1)", "https://music.apple.com/\u{9B}2J", "https://music.apple.com/\u{202E}gpj.exe"]
        standIn.setFault(.answer(hostile.enumerated().map { i, url in
            var track = Track(trackId: 90 + i, trackName: "Hostile \(i)", artistName: "The Sine Waves",
                              previewUrl: "\(standIn.baseURL)/previews/tone-440.m4a")
            track.wrapperType = "track"
            track.trackViewUrl = url
            return track
        }), forPathPrefix: "/search")
        defer { standIn.setFault(nil, forPathPrefix: "/search") }
        XCTAssertEqual(try daemon.ctl("search", "anything").status, 0)
        let (folder, environment) = try standInOpener()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for index in hostile.indices {
            let result = try daemon.ctl(["open", String(index)], environment: environment)
            XCTAssertEqual(result.status, 1, "\(hostile[index]): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("not a web address"), result.stderr)
            XCTAssertFalse((result.stdout + result.stderr).unicodeScalars.contains { $0.value == 0x9B || $0 == "\u{202E}" },
                           "a terminal control reached the output: \(result.stderr.debugDescription)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/opened"), "xdg-open ran")
    }

    func testTheIndicatorShowsWhileSearchingOnATerminalOnlyAndStatusDrawsABar() throws {
        standIn.setFault(.delay(milliseconds: 1_500), forPathPrefix: "/search")
        let pane = try startPane(["search", "sine waves"])
        XCTAssertTrue(pane.waitFor("searching…"), "the indicator while previewd asks the catalog: \(pane.capture())")
        let done = try XCTUnwrap(pane.waitFor { $0.contains("EXITED 0") }, pane.capture())
        XCTAssertFalse(done.contains("searching…"), "erased once the answer came: \(done)")
        XCTAssertTrue(done.contains("A Four Forty"))

        let piped = try daemon.ctl("search", "sine waves")
        XCTAssertEqual(piped.status, 0)
        XCTAssertFalse(piped.stderr.contains("searching"), "never into a pipe: \(piped.stderr)")
        XCTAssertFalse(piped.stdout.contains("searching"))
        let json = try daemon.ctl("--json", "search", "sine waves")
        XCTAssertFalse(json.stderr.contains("searching"))
        standIn.setFault(nil, forPathPrefix: "/search")

        pane.close()
        let status = try startPane(["status"])
        let screen = try XCTUnwrap(status.waitFor { $0.contains("EXITED 0") }, status.capture())
        XCTAssertNotNil(screen.range(of: #"\d:\d\d [━─]+ \d:\d\d"#, options: .regularExpression), "a position bar on a terminal: \(screen)")
        XCTAssertNil(try daemon.ctl("status").stdout.range(of: "━|─", options: .regularExpression), "times only into a pipe")
    }
}
