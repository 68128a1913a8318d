import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// Loudness normalisation heard on the null sink: "level setters" are three 4-second previews, a
/// loud 550 Hz tone (-9.7 LUFS), the same shape 24 dB quieter at 660 Hz (-33.6 LUFS), and a quiet
/// 770 Hz tone with short loud bursts (-20.4 LUFS, -3.6 dBTP) whose peak must limit its gain.
final class LoudnessEndToEndTests: DaemonTestCase {   // Sanitizer pass: skipped, heard only (LoudnessTests run the meter in-process)
    /// Plays the three from a search; returns where, after the last one ended.
    private func playLevelSetters() throws -> Int {
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "level setters").status, 0)
        let last = recorder.waitForTone(770, after: mark)
        XCTAssertNotNil(last, "heard \(recorder.toneSequence(after: mark))")
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: last ?? mark), "the queue should end")
        XCTAssertEqual(recorder.toneSequence(after: mark), [550, 660, 770])
        return mark
    }

    /// The median level of `hz` after `mark`, leaving out the first and last 100 ms (the codec's
    /// edges, the seam).
    private func level(_ hz: Double, after mark: Int) -> Double {
        let inner = recorder.levelsDB(of: hz, after: mark).dropFirst(2).dropLast(2).sorted()
        return inner.isEmpty ? -.infinity : inner[inner.count / 2]
    }

    /// Defaults (-16 LUFS): the loud and the quiet preview are heard within 1 dB of each other; the
    /// bursty one at the highest gain that keeps its peaks at -1 dBFS.
    func testTracksPlayEquallyLoudAndPeaksStayUnderTheCeiling() throws {
        try startOnSharedServer()
        let mark = try playLevelSetters()
        XCTAssertEqual(level(550, after: mark), level(660, after: mark), accuracy: 1, "24 dB apart as published, even once normalised")
        XCTAssertGreaterThan(recorder.levelsDB(of: 550, after: mark).count, 60)

        let peak = recorder.peakDB(of: 770, after: mark)
        XCTAssertLessThanOrEqual(peak, -0.8, "the true peak after the gain stays at -1 dBTP")
        XCTAssertGreaterThan(peak, -2, "and the gain goes up to that ceiling (the bursts peak at -3.6 unnormalised)")

        let info = try self.info(1)
        XCTAssertEqual(try XCTUnwrap(info.loudness?.integratedLUFS), -33.6, accuracy: 0.3)
        XCTAssertEqual(info.loudness?.targetLUFS, -16)
        XCTAssertTrue(try daemon.ctl("info", "1").stdout.contains("loudness    -33.6 LUFS, -32.6 dBTP"))
    }

    /// A cold start keeps the gain decided before its first frame to its last, though the whole-clip
    /// measurement arrives while it plays (the download is slowed to 20 kB/s, about 2.7 s for the
    /// clip; it is quiet for 2 s, then 12 dB louder): each half at one level, the two 12 dB apart.
    func testAColdStartKeepsOneGainThroughTheTrack() throws {
        standIn.setFault(.throttle(bytesPerSecond: 20_000), forPathPrefix: "/previews/level-880")
        try startOnSharedServer()
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "slow risers").status, 0)
        let heard = recorder.waitForTone(880, after: mark)
        XCTAssertNotNil(heard)
        XCTAssertNotNil(recorder.waitForSilence(lasting: 0.5, after: heard ?? mark))
        let levels = recorder.levelsDB(of: 880, after: mark)
        XCTAssertGreaterThan(levels.count, 72, "\(levels)")
        guard levels.count > 72 else { return }
        let quiet = levels[2..<34], loud = levels[(levels.count - 34)..<(levels.count - 2)]   // 1.6 s inside each half
        XCTAssertLessThan(quiet.max()! - quiet.min()!, 0.5, "one gain through the quiet half: \(Array(quiet))")
        XCTAssertLessThan(loud.max()! - loud.min()!, 0.5, "one gain through the loud half: \(Array(loud))")
        XCTAssertEqual(loud.sorted()[16] - quiet.sorted()[16], 12, accuracy: 0.5, "the halves as published")
    }

    /// `--normalize off`: the previews keep the 24 dB between them, and nothing is measured.
    func testWithNormalizationOffTheyKeepTheirLevels() throws {
        try startOnSharedServer(["--normalize", "off"])
        let mark = try playLevelSetters()
        XCTAssertEqual(level(550, after: mark) - level(660, after: mark), 24, accuracy: 1)
        XCTAssertEqual(recorder.peakDB(of: 770, after: mark), -3.6, accuracy: 0.6, "unchanged")
        XCTAssertNil(try status().loudness?.integratedLUFS)
    }

    /// Status, the events and the disk cache: the gain shows while a track plays; a `loudness` event
    /// says when it is measured; with `--cache-dir` the measurement outlives a restart, so the next
    /// daemon starts the same track at its measured gain at once.
    func testTheMeasurementIsReportedAndOutlivesARestart() throws {
        let cache = NSTemporaryDirectory() + "previewd-loudness-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        try startOnSharedServer(["--cache-dir", cache])
        let watch = try daemon.ctlInBackground("--json", "watch")
        XCTAssertTrue(watch.waitUntilWatching(), "subscribed before the search: \(watch.errors)")
        let mark = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "level setters").status, 0)
        XCTAssertTrue(watch.waitFor(#""integratedLUFS":-9.7"#), "the measurement reaches subscribers: \(watch.output)")
        watch.stop()
        expectTone(550, after: mark, "the loud one")
        let report = try XCTUnwrap(try status().loudness)
        XCTAssertEqual(try XCTUnwrap(report.integratedLUFS), -9.7, accuracy: 0.3)
        let gain = try XCTUnwrap(report.gain)
        XCTAssertEqual(gain.db, -16 - (report.integratedLUFS ?? 0), accuracy: 0.5)
        XCTAssertTrue(try daemon.ctl("status").stdout.contains("-9.7 LUFS"))
        XCTAssertEqual(try daemon.ctl("stop").status, 0)
        XCTAssertEqual(daemon.stop(), 0)

        let kept = try String(contentsOfFile: cache + "/loudness.tsv", encoding: .utf8)
        XCTAssertTrue(kept.contains("6001\t-9.7"), kept)
        daemon = try DaemonProcess(arguments: ["--api-base", standIn.baseURL, "--sink", sink!.name, "--cache-dir", cache])
        let again = recorder.sampleCount
        XCTAssertEqual(try daemon.ctl("search", "level setters").status, 0)
        expectTone(550, after: again, "the loud one again")
        XCTAssertEqual(try status().loudness?.gain?.basis, .measured, "known before its first frame: no estimate needed")
    }
}
