import PreviewCore
import XCTest

final class LoudnessNormalizationTests: XCTestCase {
    let normalization = LoudnessNormalization()   // track, -16 LUFS

    func testAMeasuredTrackIsBroughtToTheTarget() {
        let loud = normalization.gain(for: Loudness(integratedLUFS: -9, peakDB: -0.5, isWholeTrack: true))
        XCTAssertEqual(loud, TrackGain(db: -7, basis: .measured))
        let quiet = normalization.gain(for: Loudness(integratedLUFS: -30, peakDB: -20, isWholeTrack: true))
        XCTAssertEqual(quiet.db, 14, accuracy: 1e-9, "a measured track may be raised as far as the target asks")
        XCTAssertEqual(quiet.linear, 5.0119, accuracy: 1e-3)
    }

    func testTheTruePeakStaysUnderTheCeiling() {
        let gain = normalization.gain(for: Loudness(integratedLUFS: -22, peakDB: -4, isWholeTrack: true))
        XCTAssertEqual(gain.db, 3, accuracy: 1e-9, "-4 dBTP + 3 dB = -1 dBTP, though the target asked for +6")
        XCTAssertTrue(gain.peakLimited)
    }

    func testAnEstimateIsTrustedLess() {
        let quiet = normalization.gain(for: Loudness(integratedLUFS: -30, peakDB: -20, isWholeTrack: false))
        XCTAssertEqual(quiet, TrackGain(db: LoudnessNormalization.estimateBoostLimitDB, basis: .estimate))
        let peaky = normalization.gain(for: Loudness(integratedLUFS: -20, peakDB: -4, isWholeTrack: false))
        XCTAssertEqual(peaky.db, 2, accuracy: 1e-9, "a dB of margin below the ceiling for peaks not seen yet")
        XCTAssertTrue(peaky.peakLimited)
        let loud = normalization.gain(for: Loudness(integratedLUFS: -8, peakDB: -0.1, isWholeTrack: false))
        XCTAssertEqual(loud.db, -8, accuracy: 1e-9)
    }

    func testTheDefaultNeverRaises() {
        XCTAssertEqual(normalization.defaultGain(recent: []), TrackGain(db: 0, basis: .default))
        XCTAssertEqual(normalization.defaultGain(recent: [-7, -5, -9]).db, -7)
        XCTAssertEqual(normalization.defaultGain(recent: [4, 6, -1]).db, 0)
    }

    func testOffIsUnity() {
        let off = LoudnessNormalization(mode: .off)
        XCTAssertEqual(off.gain(for: Loudness(integratedLUFS: -30, peakDB: -20, isWholeTrack: true)), .off)
        XCTAssertEqual(off.defaultGain(recent: [-6]), .off)
        XCTAssertEqual(TrackGain.off.linear, 1)
        XCTAssertEqual(normalization.gain(for: nil).db, 0, "silence is left alone")
    }

    func testTheReportRoundsToHundredths() {
        let report = LoudnessReport(measured: Loudness(integratedLUFS: -9.714601, peakDB: -8.79219, isWholeTrack: true),
                                    gain: TrackGain(db: -6.285398, basis: .measured), targetLUFS: -16)
        XCTAssertEqual(report.integratedLUFS, -9.71)
        XCTAssertEqual(report.truePeakDBTP, -8.79)
        XCTAssertEqual(report.gain?.db, -6.29)
    }
}
