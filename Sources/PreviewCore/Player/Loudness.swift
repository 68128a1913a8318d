#if canImport(Glibc)
import Glibc
#endif

/// A preview's loudness (EBU R128 / ITU-R BS.1770), measured over the whole clip or estimated from
/// its first seconds.
public struct Loudness: Codable, Equatable, Sendable {
    /// Gated integrated loudness, LUFS.
    public var integratedLUFS: Double
    /// The highest peak, dB: the true peak (dBTP, oversampled) of a whole clip, the sample peak
    /// (dBFS) of an estimate.
    public var peakDB: Double
    /// True when measured over the whole clip; false for an estimate from the part that had arrived.
    public var isWholeTrack: Bool

    /// A measurement.
    public init(integratedLUFS: Double, peakDB: Double, isWholeTrack: Bool) {
        self.integratedLUFS = integratedLUFS
        self.peakDB = peakDB
        self.isWholeTrack = isWholeTrack
    }
}

/// The constant gain one track plays at, and why.
public struct TrackGain: Codable, Equatable, Sendable {
    /// What the gain was decided from.
    public enum Basis: String, Codable, Sendable {
        /// The whole clip's loudness and true peak.
        case measured
        /// The first seconds that had arrived when the track had to start (a cold start).
        case estimate
        /// Nothing of the track could be measured in time: the gain other tracks needed, never a boost.
        case `default`
        /// Normalisation is off.
        case off
    }

    /// The gain, dB.
    public var db: Double
    /// What it was decided from.
    public var basis: Basis
    /// True when the peak ceiling lowered the gain below what the target asked for.
    public var peakLimited: Bool

    /// A gain of `db` decided from `basis`.
    public init(db: Double, basis: Basis, peakLimited: Bool = false) {
        self.db = db
        self.basis = basis
        self.peakLimited = peakLimited
    }

    /// Unity: normalisation off.
    public static let off = TrackGain(db: 0, basis: .off)

    /// The factor samples are multiplied by.
    public var linear: Float { Float(pow(10, db / 20)) }
}

/// How previewd evens out loudness: every track plays at a constant gain that brings its integrated
/// loudness to `targetLUFS`, lowered where needed so its true peak stays at or below `peakCeilingDB`.
/// An estimate from a track's first seconds is trusted less: its boost is limited and a margin is
/// kept for peaks not yet seen.
public struct LoudnessNormalization: Equatable, Sendable {
    /// Per track, or not at all.
    public enum Mode: String, CaseIterable, Sendable {
        case track, off
    }

    /// Per track, or off.
    public var mode: Mode
    /// The loudness every track is brought to, LUFS (Apple's Sound Check level by default).
    public var targetLUFS: Double

    /// The highest true peak after the gain, dBTP.
    public static let peakCeilingDB = -1.0
    /// The most an estimate may raise a track: its first seconds may be a quiet intro.
    public static let estimateBoostLimitDB = 6.0
    /// Headroom kept below the ceiling on an estimate, for inter-sample and later peaks.
    public static let estimatePeakMarginDB = 1.0
    /// The default target, LUFS.
    public static let defaultTargetLUFS = -16.0

    /// Normalisation per track to `targetLUFS`, or off.
    public init(mode: Mode = .track, targetLUFS: Double = Self.defaultTargetLUFS) {
        self.mode = mode
        self.targetLUFS = targetLUFS
    }

    /// The gain for a track of `loudness` (nil: silent, or nothing measurable, so unity).
    public func gain(for loudness: Loudness?) -> TrackGain {
        guard mode == .track else { return .off }
        guard let loudness else { return TrackGain(db: 0, basis: .measured) }
        let wanted = targetLUFS - loudness.integratedLUFS
        let margin = loudness.isWholeTrack ? 0 : Self.estimatePeakMarginDB
        let peakLimit = Self.peakCeilingDB - margin - loudness.peakDB
        let boostLimit = loudness.isWholeTrack ? Double.infinity : Self.estimateBoostLimitDB
        let db = min(wanted, peakLimit, boostLimit)
        return TrackGain(db: db, basis: loudness.isWholeTrack ? .measured : .estimate, peakLimited: peakLimit < min(wanted, boostLimit))
    }

    /// The gain for a track nothing could be measured of in time: the median of the gains `recent`
    /// tracks needed (tracks of one search tend to be alike), but never a boost.
    public func defaultGain(recent: [Double]) -> TrackGain {
        guard mode == .track else { return .off }
        let sorted = recent.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        return TrackGain(db: min(0, median), basis: .default)
    }
}
