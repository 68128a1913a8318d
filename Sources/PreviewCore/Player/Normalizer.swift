/// The loudness side of the core: the normalisation asked for, the whole-clip measurements of the
/// previews held, and the gains the last measured tracks needed (the guess for a track nothing is
/// known of). It decides gains; which slot plays at which gain is the loads' (`PlayerCore.Slot.gain`).
public struct Normalizer: Equatable, Sendable {
    /// The most recent gains remembered for the default guess.
    static let recentCount = 8

    /// The loudness normalisation asked for.
    public internal(set) var normalization: LoudnessNormalization
    /// Whole-clip measurements of the previews held, by URL.
    public internal(set) var measurements: [String: Loudness] = [:]
    /// The gains the last measured tracks needed, oldest first (the default for a track nothing is known of).
    public internal(set) var recentGains: [Double] = []

    /// A normalizer with nothing measured yet.
    public init(_ normalization: LoudnessNormalization = LoudnessNormalization()) {
        self.normalization = normalization
    }

    /// The gain for the preview at `url` when the output is handed it, and whether it is
    /// provisional: off, the measurement's, or the recent tracks' guess, provisional on a cold
    /// start (a gapless follower takes the guess as final: it must never hold the seam).
    func gain(for url: String, followsGaplessly: Bool) -> (TrackGain, provisional: Bool) {
        if normalization.mode != .track { return (.off, false) }
        if let measured = measurements[url] { return (normalization.gain(for: measured), false) }
        return (normalization.defaultGain(recent: recentGains), !followsGaplessly)
    }

    /// The gain the preview at `url` takes when the normalisation changes: final, never provisional.
    func regain(for url: String) -> TrackGain {
        normalization.mode == .off ? .off
            : measurements[url].map { normalization.gain(for: $0) } ?? normalization.defaultGain(recent: recentGains)
    }

    /// The gain of a cold start's first seconds (nil: too little arrived, the guess stands).
    func gain(estimated estimate: Loudness?) -> TrackGain {
        estimate.map { normalization.gain(for: $0) } ?? normalization.defaultGain(recent: recentGains)
    }

    /// A whole-clip measurement of `url` arrived: kept, and its gain joins the recent ones. Returns that gain.
    mutating func measured(_ url: String, _ loudness: Loudness) -> TrackGain {
        measurements[url] = loudness
        let gain = normalization.gain(for: loudness)
        recentGains = Array((recentGains + [gain.db]).suffix(Self.recentCount))
        return gain
    }

    /// Normalises per track or not from now on; false when that is already the mode.
    mutating func setMode(_ mode: LoudnessNormalization.Mode) -> Bool {
        guard mode != normalization.mode else { return false }
        normalization.mode = mode
        return true
    }

    /// Forgets the measurements of previews no longer held.
    mutating func retain(where held: (String) -> Bool) {
        measurements = measurements.filter { held($0.key) }
    }

    /// What `status`, `info` and the events say of a preview's loudness: its measurement (or
    /// `known`, one the engine has), the gain it plays at, the target when normalising.
    func report(url: String, gain: TrackGain?, known: Loudness?) -> LoudnessReport {
        LoudnessReport(measured: measurements[url] ?? known, gain: gain,
                       targetLUFS: normalization.mode == .track ? normalization.targetLUFS : nil)
    }
}
