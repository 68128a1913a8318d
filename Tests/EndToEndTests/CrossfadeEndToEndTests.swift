import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// `--crossfade 2` as heard: 440 Hz (8 s) crossfading into 660 Hz (8 s), recorded on a FIFO and on a
/// PulseAudio null sink that never rewinds (its monitor is then exactly what the sink played). Both
/// tones sound through the overlap, the level stays within 1 dB, and the fade begins and ends where
/// it should. On the FIFO, a pause, a `next` and a `prev` in the middle of a fade: ramped, no click.
/// Levels are read in 100 ms windows, a whole number of periods of every tone used (550 Hz: 55) and
/// of their differences, so each tone's amplitude (Goertzel) and the window's RMS are exact whatever
/// the phase.
final class CrossfadeEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (CrossfadeTests run the fade in-process)
    private var folder = ""

    override func tearDown() {
        super.tearDown()
        if !folder.isEmpty { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func makeFolder() throws {
        folder = NSTemporaryDirectory() + "previewd-xfade-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func startOnFIFO(_ extra: [String] = []) throws {
        try makeFolder()
        let fifo = folder + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        recorder = try MonitorRecorder(fifo: fifo)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--output", "pipe:" + fifo, "--crossfade", "2"] + extra)
    }

    func testTwoTonesCrossfadeEvenlyOverTwoSecondsAndAPauseNextAndPrevInAFadeOnAFIFO() throws {
        try startOnFIFO()
        let reference = try checkTheFadeAsHeard("FIFO", cutAtStop: 0)
        try checkPauseNextAndPrevInAFade(reference)
    }

    /// Then the setting everywhere: MPD's `crossfade`, `mixrampdb`, `mixrampdelay` and `status`,
    /// previewctl's `crossfade`, and the saved state across a restart.
    func testTwoTonesCrossfadeEvenlyOverTwoSecondsOnPulseAudioAndTheSettingEverywhere() throws {
        try makeFolder()
        let sink = try PulseNullSink(server: pulseServer, rewinds: false)
        self.sink = sink
        recorder = try MonitorRecorder(sink: sink.name, server: pulseServer)
        let state = ["--state-dir", folder + "/state", "--mpd", folder + "/mpd.sock"]
        // A longer buffer than the default 100 ms: the sink plays by its clock, and a stream that ran
        // dry on a loaded machine would be a dip in the recording that is not the fade's.
        daemon = try DaemonProcess(arguments: daemonArguments(["--crossfade", "2", "--latency-ms", "300"] + state))
        _ = try checkTheFadeAsHeard("PulseAudio", cutAtStop: 0.3)

        let mpd = try MPDRawClient(path: folder + "/mpd.sock")
        XCTAssertTrue(mpd.ask("status")?.contains("xfade: 2") == true)
        XCTAssertEqual(mpd.ask("crossfade 99"), ["OK"], "MPD takes any length")
        XCTAssertEqual(mpd.ask("mixrampdb -17.5"), ["OK"])
        XCTAssertEqual(mpd.ask("mixrampdelay 2"), ["OK"])
        let status15 = mpd.ask("status") ?? []
        for line in ["xfade: 15", "mixrampdb: -17.5", "mixrampdelay: 2"] { XCTAssertTrue(status15.contains(line), "\(line) in \(status15)") }
        XCTAssertEqual(try status().crossfade, 15, "the engine's one setting")
        XCTAssertEqual(mpd.ask("mixrampdelay nan"), ["OK"])
        XCTAssertEqual(mpd.ask("crossfade 0"), ["OK"])
        let status0 = mpd.ask("status") ?? []
        XCTAssertFalse(status0.contains { $0.hasPrefix("xfade:") || $0.hasPrefix("mixrampdelay:") }, "\(status0)")
        XCTAssertEqual(mpd.ask("crossfade x")?.first?.hasPrefix("ACK [2@0] {crossfade}"), true)

        XCTAssertEqual(try daemon.ctl("crossfade").stdout, "crossfade 0 s\n")
        XCTAssertNotEqual(try daemon.ctl("crossfade", "16").status, 0)
        XCTAssertEqual(try daemon.ctl("crossfade", "3").stdout, "crossfade 3 s\n")
        XCTAssertEqual(daemon.stop(), 0)
        daemon = try DaemonProcess(arguments: daemonArguments(state))
        XCTAssertEqual(try status().crossfade, 3, "kept across a restart")
    }

    // MARK: The fade

    private var rate: Double { Double(recorder.sampleRate) }

    /// Samples in a measuring window (100 ms).
    private var span: Int { recorder.sampleRate / 10 }

    /// The amplitude of `hz` and the RMS in the 100 ms window from sample `start` (silence past the
    /// last sample: a FIFO's stream ends with its last track).
    private func measure(_ hz: Double, at start: Int) -> (amplitude: Double, rms: Double) {
        var samples = recorder.samples(in: start..<start + span)
        samples += [Float](repeating: 0, count: span - samples.count)
        let window = samples[...]
        let detector = ToneDetector(frequencies: [hz], sampleRate: rate)
        return (2 * detector.power(of: hz, in: window).squareRoot(), Double(ToneDetector.rms(window)))
    }

    /// Where (window centre, in samples) the amplitude of `hz`, relative to `steady`, crosses `level`
    /// going `up` (or down), looked for in 5 ms steps from `from` to `to`, interpolated; the `last`
    /// such crossing, or the first.
    private func crossing(_ hz: Double, of steady: Double, at level: Double, up: Bool, from: Int, to: Int, last: Bool = false) -> Double? {
        var previous: (Int, Double)?
        var found: Double?
        for start in stride(from: from, to: to - span, by: recorder.sampleRate / 200) {
            let ratio = measure(hz, at: start).amplitude / steady
            if let (p, r) = previous, up ? (r < level && ratio >= level) : (r > level && ratio <= level) {
                found = Double(p) + (level - r) / (ratio - r) * Double(start - p) + Double(span) / 2
                if !last { return found }
            }
            previous = (start, ratio)
        }
        return found
    }

    /// 440 Hz from 4 s (4 s of it left), crossfading into 660 Hz over its last 2 s; 660 Hz, the
    /// last track, ends plainly 8 s after its fade began, less what the output held when playback
    /// stopped (`cutAtStop` seconds: a stop drops what PulseAudio still buffers, at the end of the
    /// queue too). Prints the figures for the record; returns the amplitude of a tone alone.
    private func checkTheFadeAsHeard(_ output: String, cutAtStop: Double) throws -> Double {
        XCTAssertEqual(try status().crossfade, 2, "--crossfade 2")
        _ = try daemon.request(#"{"id":1,"cmd":"lookup","args":{"id":[1001,1002],"play":false}}"#)
        // Cued at 4 s until both tones are measured: the level is compared across the two tracks,
        // so each must play at its own measured gain. A follower not measured when its fade begins
        // plays at the recent tracks' guess, never a boost, and these quiet tones need one (+5.7
        // dB); its measurement runs in the background, behind the current track's, and on a loaded
        // machine took more than the 2 s before the fade.
        XCTAssertTrue(try daemon.request(#"{"id":2,"cmd":"play","args":{"index":0,"position":4,"paused":true}}"#).replacingOccurrences(of: " ", with: "").contains("\"ok\":true"))
        try waitFor("both tones measured") { try [0, 1].allSatisfy { try info($0).loudness?.integratedLUFS != nil } }
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        let heard = try XCTUnwrap(recorder.waitForTone(440, after: mark))
        // The whole of it: 2 s alone, then 8 s of the next, the first 2 s under the first's end (a
        // FIFO's stream ends there; a sink goes on, silent).
        XCTAssertNotNil(recorder.waitFor(after: heard + 10 * recorder.sampleRate - recorder.sampleRate / 10 - recorder.window,
                                         timeout: 30) { _, _, _ in true }, "660 Hz did not last; \(recorder.levels(after: heard))")
        XCTAssertEqual(try waitForStatus { $0.state == .stopped }.index, 1)
        let onset = try XCTUnwrap(crossing(440, of: measure(440, at: heard + recorder.sampleRate).amplitude, at: 0.5, up: true,
                                           from: heard - recorder.sampleRate / 2, to: heard + recorder.sampleRate))
        let steady440 = measure(440, at: heard + recorder.sampleRate)
        let steady660 = measure(660, at: heard + 6 * recorder.sampleRate)
        let level440 = 20 * log10(steady440.rms)
        // The fade: 660 Hz half up (sin = 0.5, a third of the way in), 440 Hz half down (cos = 0.5,
        // two thirds in); so the overlap is three times the distance between them.
        let search = (Int(onset) + recorder.sampleRate, Int(onset) + 5 * recorder.sampleRate)
        let rises = try XCTUnwrap(crossing(660, of: steady660.amplitude, at: 0.5, up: true, from: search.0, to: search.1))
        let falls = try XCTUnwrap(crossing(440, of: steady440.amplitude, at: 0.5, up: false, from: search.0, to: search.1))
        let overlap = 3 * (falls - rises) / rate
        let fadeStart = (rises - (falls - rises)) / rate - onset / rate
        let ends = try XCTUnwrap(crossing(660, of: steady660.amplitude, at: 0.5, up: false,
                                          from: Int(rises) + 6 * recorder.sampleRate, to: Int(rises) + 9 * recorder.sampleRate, last: true))
        let secondLasts = (ends - (rises - (falls - rises))) / rate
        // Within 0.1 s: the windows are 50 ms, and a sink on a loaded machine plays by its clock.
        XCTAssertEqual(overlap, 2, accuracy: 0.1, "the overlap")
        XCTAssertEqual(fadeStart, 2, accuracy: 0.1, "the fade begins 2 s before the first track's end")
        XCTAssertTrue((8 - cutAtStop - 0.1...8.1).contains(secondLasts), "the second track whole from the fade's start: \(secondLasts) s")
        // The level through the fade, relative to 440 Hz alone: within 1 dB in every 100 ms window.
        let fadeFrom = Int(rises - (falls - rises))
        var table: [String] = []
        var worst = 0.0
        for start in stride(from: fadeFrom - recorder.sampleRate / 4, to: fadeFrom + 2 * recorder.sampleRate + recorder.sampleRate / 4,
                            by: span / 2) {
            let a = measure(440, at: start), b = measure(660, at: start)
            let db = 20 * log10(max(a.rms, 1e-9)) - level440
            worst = max(worst, abs(db))
            if (start - fadeFrom) % (recorder.sampleRate / 4) < span / 2 {
                table.append(String(format: "%+.2f s: 440 %.1f dB, 660 %.1f dB, total %+.2f dB", Double(start - fadeFrom) / rate,
                                    20 * log10(max(a.amplitude / steady440.amplitude, 1e-9)),
                                    20 * log10(max(b.amplitude / steady660.amplitude, 1e-9)), db))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "the level through the fade:\n\(table.joined(separator: "\n"))")
        // Both tones sound through the middle of the overlap.
        let middle = measure(440, at: fadeFrom + recorder.sampleRate - span / 2).amplitude / steady440.amplitude
        let middle660 = measure(660, at: fadeFrom + recorder.sampleRate - span / 2).amplitude / steady660.amplitude
        XCTAssertEqual(middle, 0.707, accuracy: 0.05, "440 Hz at the middle: cos(π/4)")
        XCTAssertEqual(middle660, 0.707, accuracy: 0.05, "660 Hz at the middle: sin(π/4)")
        print("""
            crossfade on \(output): 440 Hz alone \(String(format: "%.1f", level440)) dBFS RMS, 660 Hz alone \
            \(String(format: "%.1f", 20 * log10(steady660.rms))) dBFS; the fade began \(String(format: "%.3f", fadeStart)) s after \
            the first sound (2 expected), lasted \(String(format: "%.3f", overlap)) s (2), the second track lasted \
            \(String(format: "%.3f", secondLasts)) s from it (8); widest level change \(String(format: "%.2f", worst)) dB
            \(table.joined(separator: "\n"))
            """)
        return steady440.amplitude
    }

    // MARK: A fade interrupted

    /// Each tone's level (of `amplitude`) every 250 ms after `mark`, for a failure's message.
    private func levels(_ tones: [Double], of amplitude: Double, after mark: Int) -> String {
        stride(from: mark, to: recorder.sampleCount - span, by: recorder.sampleRate / 4).map { start in
            String(format: "%.2f s: ", Double(start - mark) / rate)
                + tones.map { String(format: "%g Hz %.2f", $0, measure($0, at: start).amplitude / amplitude) }.joined(separator: ", ")
        }.joined(separator: "\n")
    }

    /// The largest step between two neighbouring samples of `range`: two tones at full level
    /// (`amplitude` each) at 1,100 Hz step by at most 2π·1100·2a/rate; a cut is a step of up to 2a.
    private func checkNoClick(in range: Range<Int>, amplitude: Double, _ what: String) {
        let samples = recorder.samples(in: range)
        let largest = zip(samples, samples.dropFirst()).map { Double(abs($1 - $0)) }.max() ?? 0
        XCTAssertLessThanOrEqual(largest, 2 * .pi * 1_100 * 2 * amplitude / rate, "\(what): a click")
    }

    /// For `recorder.waitFor`: a window where both tones sound, each above `share` of `amplitude`.
    private func both(_ a: Double, _ b: Double, above share: Double, of amplitude: Double) -> (Int, Double?, Float) -> Bool {
        { start, _, _ in self.measure(a, at: start).amplitude > share * amplitude && self.measure(b, at: start).amplitude > share * amplitude }
    }

    /// 880 Hz into 1,100 Hz: paused in the middle of the fade (both ramp out together), resumed (both
    /// ramp in and the fade goes on where it was). 1,100 Hz into 550 Hz: `next` (both ramp out, the
    /// following track, 440 Hz, comes in). 440 Hz into 660 Hz: `prev` (the track before the new
    /// one, 440 Hz, plays again, alone). The new track is current from the fade's start.
    private func checkPauseNextAndPrevInAFade(_ amplitude: Double) throws {
        _ = try daemon.request(#"{"id":3,"cmd":"lookup","args":{"id":[1003,1004,1005,1001,1002],"play":false}}"#)
        _ = try daemon.request(#"{"id":4,"cmd":"play","args":{"index":0}}"#)
        let seek = try seekOneSecondBeforeTheFade()
        var mark = seek.mark
        let fading = try XCTUnwrap(recorder.waitFor(after: mark, both(880, 1_100, above: 0.4, of: amplitude)), "no fade into 1,100 Hz")
        let during = try status()
        XCTAssertEqual(during.index, 1, "the next track is current once the fade begins")
        // Its position counts from its own start, which came a second after the seek: less than the
        // time since the seek (the track before is past 5 s).
        let sinceSeek = millisecondsSince(seek.sent)
        XCTAssertLessThan(during.positionMs, sinceSeek + 500, "the new track's position, from its start (\(sinceSeek) ms since the seek)")

        XCTAssertEqual(try daemon.ctl("pause").status, 0)
        // What was in flight when pause came (at most ~160 ms) has arrived: the FIFO is quiet.
        XCTAssertNotNil(settled(quiet: 0.3) { recorder.sampleCount }, "bytes kept coming after the pause")
        let pausedAt = try status().positionMs
        let paused = recorder.sampleCount
        XCTAssertLessThan(abs(recorder.samples(in: paused - 1..<paused).first ?? 1), 0.01, "the pause ends in silence")
        checkNoClick(in: fading..<paused, amplitude: amplitude, "the pause in a fade")
        mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("resume").status, 0)
        XCTAssertGreaterThanOrEqual(try status().positionMs, pausedAt, "the new track goes on from where it paused")
        let back = try XCTUnwrap(recorder.waitFor(after: mark, both(880, 1_100, above: 0.2, of: amplitude)), "the fade did not go on with both")
        // Where it was: 1,100 Hz had risen past 0.4 before the pause; a fade begun again would rise
        // from nothing and be heard first near 0.2. (A level, not a time: on a loaded machine the
        // decoders can fall behind the pipe, and the fade then stretches.)
        XCTAssertGreaterThan(measure(1_100, at: back).amplitude, 0.35 * amplitude, "the fade went on from where it was, not again")
        // 1,100 Hz alone is heard at about 0.91 of 440 Hz alone: each track has its own loudness
        // gain, and the loudness measure weighs 1,100 Hz a little more (K-weighting).
        let alone = try XCTUnwrap(recorder.waitFor(after: mark, timeout: 30) { start, _, _ in
            measure(880, at: start).amplitude < 0.01 * amplitude && measure(1_100, at: start).amplitude > 0.8 * amplitude
        }, "880 Hz did not fade out; heard since the resume:\n\(levels([880, 1_100], of: amplitude, after: mark))\n\(daemon.log.suffix(3_000))")
        checkNoClick(in: mark..<alone, amplitude: amplitude, "the resume in a fade")

        try interruptAFade(of: 1_100, into: 550, with: "next", alone: 440, amplitude: amplitude)
        XCTAssertEqual(try status().index, 3)
        let prev = try interruptAFade(of: 440, into: 660, with: "prev", alone: 440, amplitude: amplitude)
        let report = try status()
        let sincePrev = millisecondsSince(prev)
        XCTAssertEqual(report.index, 3, "prev from the new track: the one before it, again")
        // From its start: no more of it heard than the time since the prev (a second's slack for
        // what the output holds ahead); where the fade was, it would be past 5 s.
        XCTAssertLessThan(report.positionMs, sincePrev + 1_000, "from its start (\(sincePrev) ms since the prev)")
    }

    /// Seeks 5 s into the current track (8 s long: its fade begins 1 s later) once the next one has
    /// audio ready; returns the sample count before the seek and when the seek was sent. A follower
    /// with nothing decoded yet when the fade is due joins later, over a shorter overlap (no gap is
    /// ever waited for): right after a `next` its download may still be under way.
    private func seekOneSecondBeforeTheFade() throws -> (mark: Int, sent: Date) {
        let next = try waitForStatus { $0.slots.contains { $0.role == "next" && ["ready", "finished"].contains($0.state) } }
        // And measured: a follower not measured when its fade begins plays at the recent tracks'
        // guess (never a boost; these quiet tones need one), and the fade's levels would be off by
        // that, not by the fade (its measurement runs in the background: late on a loaded machine).
        let index = try XCTUnwrap(next.nextIndex)
        try waitFor("track \(index), next, measured") { try info(index).loudness?.integratedLUFS != nil }
        let mark = recorder.sampleCount, sent = Date()
        XCTAssertEqual(try daemon.ctl("seek", "5").status, 0)
        return (mark, sent)
    }

    /// Seeks 5 s into the current track (its fade into `new` begins 1 s later), sends `command` in
    /// the middle of the fade, and checks that `alone` follows, the other tones gone, with no click.
    /// Returns when `command` was sent.
    @discardableResult
    private func interruptAFade(of old: Double, into new: Double, with command: String, alone: Double, amplitude: Double) throws -> Date {
        let mark = try seekOneSecondBeforeTheFade().mark
        let fading = try XCTUnwrap(recorder.waitFor(after: mark, both(old, new, above: 0.4, of: amplitude)),
                                   "no fade into \(Int(new)) Hz; heard since the seek:\n\(levels([old, new], of: amplitude, after: mark))\n\(daemon.log.suffix(3_000))")
        let sent = Date()
        XCTAssertEqual(try daemon.ctl(command).status, 0)
        let gone = [old, new].filter { $0 != alone }
        let heard = try XCTUnwrap(recorder.waitFor(after: fading) { start, _, _ in
            measure(alone, at: start).amplitude > 0.9 * amplitude && gone.allSatisfy { measure($0, at: start).amplitude < 0.01 * amplitude }
        }, "\(command) in a fade: \(Int(alone)) Hz alone not heard; \(recorder.levels(after: fading))")
        checkNoClick(in: fading..<heard + span, amplitude: amplitude, "\(command) in a fade")
        return sent
    }
}
