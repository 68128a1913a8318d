/// What `status`, `info` and the `track` and `loudness` events say about a track's loudness.
public struct LoudnessReport: Codable, Equatable, Sendable {
    /// Integrated loudness of the whole preview, LUFS; nil until measured (or with normalisation off).
    public var integratedLUFS: Double?
    /// True peak of the whole preview, dBTP; nil until measured.
    public var truePeakDBTP: Double?
    /// The gain the track plays at; nil until it is handed to the output.
    public var gain: TrackGain?
    /// The loudness tracks are brought to, LUFS; nil with normalisation off.
    public var targetLUFS: Double?

    /// A report of `measured` (whole clip) and the `gain` applied.
    public init(measured: Loudness?, gain: TrackGain?, targetLUFS: Double?) {
        func hundredths(_ x: Double) -> Double { (x * 100).rounded() / 100 }
        integratedLUFS = measured.map { hundredths($0.integratedLUFS) }
        truePeakDBTP = measured.map { hundredths($0.peakDB) }
        self.gain = gain.map { TrackGain(db: hundredths($0.db), basis: $0.basis, peakLimited: $0.peakLimited) }
        self.targetLUFS = targetLUFS
    }
}
