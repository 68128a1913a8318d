import CEBUR128
import Glibc
import PreviewCore

/// One libebur128 measurement: gated integrated loudness in histogram mode (constant memory however
/// long the clip), and the true peak (4× oversampled) or the sample peak.
final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    private let channels: Int
    private let truePeak: Bool

    /// A meter for interleaved float frames of `format`; nil when libebur128 cannot make one.
    init?(format: PCMFormat, truePeak: Bool) {
        let peakMode = truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : EBUR128_MODE_SAMPLE_PEAK.rawValue
        let mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue | peakMode
        guard let state = ebur128_init(UInt32(format.channels), UInt(format.sampleRate), Int32(mode)) else { return nil }
        self.state = state
        channels = format.channels
        self.truePeak = truePeak
    }

    deinit { ebur128_destroy(&state) }

    /// Adds `frames` interleaved frames.
    func add(_ samples: UnsafePointer<Float>, frames: Int) {
        _ = ebur128_add_frames_float(state, samples, frames)
    }

    /// The loudness so far; nil while every block is gated out (silence, or under 400 ms).
    func loudness(isWholeTrack: Bool) -> Loudness? {
        var integrated = 0.0
        guard ebur128_loudness_global(state, &integrated) == Int32(EBUR128_SUCCESS.rawValue), integrated.isFinite else { return nil }
        var peak = 0.0
        for channel in 0..<channels {
            var value = 0.0
            let status = truePeak ? ebur128_true_peak(state, UInt32(channel), &value) : ebur128_sample_peak(state, UInt32(channel), &value)
            if status == Int32(EBUR128_SUCCESS.rawValue) { peak = max(peak, value) }
        }
        return Loudness(integratedLUFS: integrated, peakDB: 20 * log10(max(peak, 1e-9)), isWholeTrack: isWholeTrack)
    }
}
