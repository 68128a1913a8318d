@testable import PreviewCore
import XCTest

/// `Normalizer` alone: which gain a preview gets from what is known of it, and what it remembers.
final class NormalizerTests: XCTestCase {
    private let loud = Loudness(integratedLUFS: -8, peakDB: -0.5, isWholeTrack: true)
    private let quiet = Loudness(integratedLUFS: -20, peakDB: -12, isWholeTrack: true)

    func testAMeasuredPreviewTakesItsGainAndAnUnknownOneTheRecentGuess() {
        var normalizer = Normalizer()
        let gain = normalizer.measured("a", loud)
        XCTAssertEqual(gain, LoudnessNormalization().gain(for: loud))
        XCTAssertEqual(normalizer.recentGains, [gain.db])
        let measured = normalizer.gain(for: "a", followsGaplessly: false)
        XCTAssertEqual(measured.0, gain)
        XCTAssertFalse(measured.provisional)
        // Unknown: the recent tracks' guess, provisional on a cold start, final for a follower.
        let cold = normalizer.gain(for: "b", followsGaplessly: false)
        XCTAssertEqual(cold.0, LoudnessNormalization().defaultGain(recent: [gain.db]))
        XCTAssertTrue(cold.provisional)
        XCTAssertFalse(normalizer.gain(for: "b", followsGaplessly: true).provisional)
    }

    func testOffPlaysEverythingAsItIs() {
        var normalizer = Normalizer(LoudnessNormalization(mode: .off))
        _ = normalizer.measured("a", loud)
        XCTAssertEqual(normalizer.gain(for: "a", followsGaplessly: false).0, .off)
        XCTAssertEqual(normalizer.gain(for: "b", followsGaplessly: false).0, .off)
        XCTAssertFalse(normalizer.gain(for: "b", followsGaplessly: false).provisional)
        XCTAssertTrue(normalizer.setMode(.track))
        XCTAssertFalse(normalizer.setMode(.track))
        XCTAssertEqual(normalizer.regain(for: "a"), LoudnessNormalization().gain(for: loud))
    }

    func testOnlyTheLastEightGainsAreRemembered() {
        var normalizer = Normalizer()
        for i in 0..<10 { _ = normalizer.measured("\(i)", i.isMultiple(of: 2) ? loud : quiet) }
        XCTAssertEqual(normalizer.recentGains.count, 8)
        XCTAssertEqual(normalizer.recentGains.last, LoudnessNormalization().gain(for: quiet).db)
    }

    func testMeasurementsOfPreviewsNoLongerHeldAreForgotten() {
        var normalizer = Normalizer()
        _ = normalizer.measured("a", loud)
        _ = normalizer.measured("b", quiet)
        normalizer.retain { $0 == "b" }
        XCTAssertEqual(Array(normalizer.measurements.keys), ["b"])
        XCTAssertEqual(normalizer.recentGains.count, 2)   // what tracks needed outlives them
    }

    func testTheReportNamesTheTargetOnlyWhenNormalising() {
        var normalizer = Normalizer()
        _ = normalizer.measured("a", loud)
        XCTAssertEqual(normalizer.report(url: "a", gain: nil, known: nil).integratedLUFS, loud.integratedLUFS)
        XCTAssertEqual(normalizer.report(url: "b", gain: nil, known: quiet).integratedLUFS, quiet.integratedLUFS)
        XCTAssertEqual(normalizer.report(url: "a", gain: nil, known: nil).targetLUFS, LoudnessNormalization.defaultTargetLUFS)
        _ = normalizer.setMode(.off)
        XCTAssertNil(normalizer.report(url: "a", gain: nil, known: nil).targetLUFS)
    }

    func testAnEstimateReplacesTheGuessAndNoEstimateKeepsIt() {
        let normalizer = Normalizer()
        let estimate = Loudness(integratedLUFS: -30, peakDB: -20, isWholeTrack: false)
        XCTAssertEqual(normalizer.gain(estimated: estimate), LoudnessNormalization().gain(for: estimate))
        XCTAssertEqual(normalizer.gain(estimated: nil), LoudnessNormalization().defaultGain(recent: []))
    }
}
