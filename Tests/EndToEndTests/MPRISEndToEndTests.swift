import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// MPRIS2 on a private session bus (`dbus-daemon --session`), driven by Debian's `playerctl` as a
/// desktop would: what it prints and what the null sink's monitor hears must agree.
final class MPRISEndToEndTests: DaemonTestCase {
    private var bus: SessionBus?

    override func tearDown() {
        super.tearDown()
        bus?.stop()
    }

    /// previewd on a fresh null sink and a private session bus.
    private func startOnBus(_ arguments: [String] = []) throws -> SessionBus {
        guard ProcessRunner.which("playerctl") != nil else {
            throw XCTSkip("playerctl not installed (Debian's playerctl; scripts/test installs it)")
        }
        let bus = try SessionBus()
        self.bus = bus
        let sink = try PulseNullSink()
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", sink.name] + arguments,
                                   environment: bus.environment)
        return bus
    }

    /// `playerctl -p previewd ARGUMENTS`: what it printed, trimmed.
    @discardableResult
    private func playerctl(_ arguments: String...) throws -> String {
        let result = try XCTUnwrap(bus).run("playerctl", ["-p", "previewd"] + arguments)
        XCTAssertEqual(result.status, 0, "playerctl \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testPlayerctlSeesAndSteersWhatIsHeard() throws {
        let bus = try startOnBus()
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "the search plays")
        bus.expectPlayerctl("Playing", "status")
        let listed = try bus.run("playerctl", ["-l"])
        XCTAssertTrue(listed.stdout.contains("previewd"), "playerctl -l: \(listed)")
        XCTAssertEqual(try playerctl("metadata", "title"), "A Four Forty")
        XCTAssertEqual(try playerctl("metadata", "artist"), "The Sine Waves")
        XCTAssertEqual(try playerctl("metadata", "album"), "Pure Tones")
        XCTAssertEqual(try playerctl("metadata", "xesam:url"), "https://music.apple.com/us/album/701?i=1001&uo=4")
        let trackID = try playerctl("metadata", "mpris:trackid")
        XCTAssertTrue(trackID.contains("/org/previewd/track/\(try XCTUnwrap(try status().id))"), "an object path from the queue item's id: \(trackID)")
        XCTAssertEqual(try daemon.ctl("move", "6", "5").status, 0)   // an edit elsewhere in the queue
        XCTAssertEqual(try playerctl("metadata", "mpris:trackid"), trackID, "the same after the queue changed")
        let length = Int(try playerctl("metadata", "mpris:length")) ?? 0
        XCTAssertTrue((7_500_000...8_500_000).contains(length), "the preview's own length, 8 s: \(length) µs")
        // The artwork, fetched at 600×600 into the private cache, is shown as a file:// URL.
        let artURL = bus.waitForPlayerctl(["metadata", "mpris:artUrl"]) { $0.hasPrefix("file:///") }
        let artPath = String(artURL.dropFirst(7))
        XCTAssertEqual(FileManager.default.contents(atPath: artPath), FileManager.default.contents(atPath: Fixtures.directory.path + "/artwork/quadrants.jpg"))

        mark = recorder.sampleCount
        try playerctl("next")
        expectTone(660, after: mark, "playerctl next")
        bus.expectPlayerctl("E Six Sixty", "metadata", "title")
        mark = recorder.sampleCount
        try playerctl("previous")
        expectTone(440, after: mark, "playerctl previous")
        bus.expectPlayerctl("A Four Forty", "metadata", "title")

        try playerctl("play-pause")
        bus.expectPlayerctl("Paused", "status")
        mark = recorder.sampleCount
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: mark), "pause silences the sink")
        mark = recorder.sampleCount
        try playerctl("play-pause")
        expectTone(440, after: mark, "play-pause resumes")
        bus.expectPlayerctl("Playing", "status")

        try playerctl("volume", "0.5")
        bus.expectPlayerctl("0.500000", "volume")
        XCTAssertEqual(try status().volume, 50)
        try playerctl("loop", "Playlist")
        bus.expectPlayerctl("Playlist", "loop")
        XCTAssertEqual(try status().repeat, .all)
        try playerctl("shuffle", "On")
        bus.expectPlayerctl("On", "shuffle")
        XCTAssertTrue(try status().shuffle)
        try playerctl("shuffle", "Off")
        try playerctl("position", "4")
        let position = try status().positionMs
        XCTAssertTrue((3_900...6_000).contains(position), "SetPosition moved to 4 s: \(position) ms")
        let reported = Double(try playerctl("position")) ?? 0
        XCTAssertTrue((3.9...6.5).contains(reported), "Position follows: \(reported) s")

        // OpenUri is not something previewd does: an error, and nothing changes.
        XCTAssertNotEqual(try bus.run("playerctl", ["-p", "previewd", "open", "file:///etc/passwd"]).status, 0)
        XCTAssertEqual(try status().state, .playing)
    }

    func testChangesMadeThroughPreviewctlReachDBusClientsAsPropertiesChanged() throws {
        let bus = try startOnBus()
        guard let monitorPath = ProcessRunner.which("dbus-monitor") else { throw XCTSkip("dbus-monitor not installed") }
        let monitor = try BackgroundCommand(monitorPath, ["--session", "type='signal',path='/org/mpris/MediaPlayer2'"],
                                            environment: bus.environment)
        defer { monitor.stop(signal: SIGTERM) }
        XCTAssertTrue(monitor.waitFor("NameLost"), "dbus-monitor is listening")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "the search plays")
        XCTAssertTrue(monitor.waitFor("string \"Playing\""), "PlaybackStatus Playing: \(monitor.output.suffix(2000))")
        XCTAssertTrue(monitor.waitFor("string \"CanGoNext\""), "the Can* flags are announced")
        XCTAssertTrue(monitor.waitFor("A Four Forty"), "Metadata with the title")

        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        XCTAssertTrue(monitor.waitFor("string \"Paused\""), "previewctl pause reaches D-Bus clients")
        XCTAssertEqual(try daemon.ctl("repeat", "one").status, 0)
        XCTAssertTrue(monitor.waitFor("string \"Track\""), "LoopStatus Track")
        XCTAssertEqual(try daemon.ctl("volume", "30").status, 0)
        XCTAssertTrue(monitor.waitFor("double 0.3"), "Volume 0.3")
        XCTAssertEqual(try daemon.ctl("seek", "2").status, 0)
        XCTAssertTrue(monitor.waitFor("member=Seeked"), "a seek is a Seeked signal")

        // Quit ends previewd as SIGTERM does (tearDown checks the exit status and the socket).
        let quit = try bus.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.previewd",
                                             "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"])
        XCTAssertEqual(quit.status, 0, quit.stderr)
        XCTAssertTrue(eventually(timeout: 10) { !daemon.isRunning }, "Quit ends previewd")
        XCTAssertTrue(daemon.log.contains("MPRIS Quit: shutting down"), daemon.log)
    }

    /// The object against the MPRIS 2.2 specification's interface XML (freedesktop mpris-spec,
    /// org.mpris.MediaPlayer2.xml and org.mpris.MediaPlayer2.Player.xml): every method with its
    /// arguments, the signal, every property with its type and access.
    func testTheObjectMatchesTheSpecificationsInterfaces() throws {
        let bus = try startOnBus()
        _ = bus.waitForPlayerctl(["status"]) { !$0.isEmpty }
        let introspected = try bus.run("dbus-send", ["--print-reply=literal", "--dest=org.mpris.MediaPlayer2.previewd",
                                                     "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Introspectable.Introspect"])
        XCTAssertEqual(introspected.status, 0, introspected.stderr)
        let xml = introspected.stdout
        func interface(_ name: String) -> String {
            guard let start = xml.range(of: "<interface name=\"\(name)\">") else { return "" }
            return String(xml[start.upperBound...].prefix { _ in true }.components(separatedBy: "</interface>")[0])
        }
        func matches(_ pattern: String, in text: String) -> [[String]] {
            let regex = try! NSRegularExpression(pattern: pattern)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                (1..<match.numberOfRanges).map { String(text[Range(match.range(at: $0), in: text)!]) }
            }
        }
        func properties(_ text: String) -> [String: String] {
            Dictionary(uniqueKeysWithValues: matches(#"<property name="(\w+)" type="([^"]+)" access="(\w+)""#, in: text).map { ($0[0], $0[1] + " " + $0[2]) })
        }
        func methods(_ text: String) -> [String: String] {   // name → argument types and directions
            var found: [String: String] = [:]
            for block in text.components(separatedBy: "<method name=\"").dropFirst() {
                let name = String(block.prefix { $0 != "\"" })
                let body = block.components(separatedBy: "</method>")[0]
                found[name] = matches(#"<arg type="([^"]+)"(?: name="\w+")? direction="(\w+)""#, in: body).map { "\($0[0]) \($0[1])" }.joined(separator: ", ")
            }
            return found
        }
        let root = interface("org.mpris.MediaPlayer2"), player = interface("org.mpris.MediaPlayer2.Player")
        XCTAssertEqual(methods(root), ["Raise": "", "Quit": ""])
        for (name, expected) in ["CanQuit": "b read", "CanRaise": "b read", "HasTrackList": "b read", "Identity": "s read",
                                 "SupportedUriSchemes": "as read", "SupportedMimeTypes": "as read"] {
            XCTAssertEqual(properties(root)[name], expected, "org.mpris.MediaPlayer2.\(name)")
        }
        XCTAssertEqual(methods(player), ["Next": "", "Previous": "", "Pause": "", "PlayPause": "", "Stop": "", "Play": "",
                                         "Seek": "x in", "SetPosition": "o in, x in", "OpenUri": "s in"])
        XCTAssertEqual(matches(#"<signal name="(\w+)">\s*<arg type="([^"]+)""#, in: player).map { $0.joined(separator: " ") }, ["Seeked x"])
        let expected = ["PlaybackStatus": "s read", "LoopStatus": "s readwrite", "Rate": "d readwrite", "Shuffle": "b readwrite",
                        "Metadata": "a{sv} read", "Volume": "d readwrite", "Position": "x read", "MinimumRate": "d read",
                        "MaximumRate": "d read", "CanGoNext": "b read", "CanGoPrevious": "b read", "CanPlay": "b read",
                        "CanPause": "b read", "CanSeek": "b read", "CanControl": "b read"]
        XCTAssertEqual(properties(player), expected)

        // The behaviours the text states: a player that plays at 1.0 only keeps Rate at 1.0, and a
        // Rate of 0.0 acts as Pause; a negative Volume is 0.0.
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        bus.expectPlayerctl("Playing", "status")
        func set(_ property: String, _ value: String) throws {
            let result = try bus.run("dbus-send", ["--print-reply", "--dest=org.mpris.MediaPlayer2.previewd", "/org/mpris/MediaPlayer2",
                                                   "org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                                                   "string:\(property)", value])
            XCTAssertEqual(result.status, 0, "\(property) = \(value): \(result.stderr)")
        }
        try set("Rate", "variant:double:2.0")
        XCTAssertEqual(try playerctl("status"), "Playing", "another rate changes nothing")
        let rate = try bus.run("dbus-send", ["--print-reply=literal", "--dest=org.mpris.MediaPlayer2.previewd", "/org/mpris/MediaPlayer2",
                                             "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:Rate"])
        XCTAssertEqual(rate.stdout.split(separator: " ").last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }, 1.0,
                       "Rate stays 1.0: \(rate.stdout)")
        try set("Rate", "variant:double:0.0")
        bus.expectPlayerctl("Paused", "status")
        try set("Volume", "variant:double:-0.5")
        bus.waitForPlayerctl(["volume"]) { Double($0) == 0 }
        XCTAssertEqual(try status().volume, 0)
    }

    func testWithoutASessionBusOrWithNoMprisPreviewdPlaysOn() throws {
        try startOnSharedServer()   // DaemonProcess points it at a bus that is not there
        var mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "no session bus: playback as usual")
        XCTAssertEqual(daemon.stop(), 0, daemon.log)
        XCTAssertTrue(daemon.log.contains("MPRIS off: no session bus"), daemon.log)
        daemon = nil
        recorder.stop()
        sink?.remove()

        let bus = try startOnBus(["--no-mpris"])
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "sine waves").status, 0)
        expectTone(440, after: mark, "--no-mpris: playback as usual")
        XCTAssertFalse(try bus.run("playerctl", ["-l"]).stdout.contains("previewd"), "--no-mpris takes no bus name")
    }
}
