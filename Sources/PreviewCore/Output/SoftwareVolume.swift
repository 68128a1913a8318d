/// Volume applied to the samples themselves, for outputs that have no mixer of their own (Snapcast,
/// a FIFO). The same scale as PulseAudio's stream volume, so `volume 50` sounds alike on every output:
/// PulseAudio's percent is cubic in amplitude (50 % ≈ -18 dB).
public enum SoftwareVolume {
    /// The linear gain for `percent` (0–100) and `muted`.
    public static func gain(percent: Int, muted: Bool) -> Float {
        guard !muted else { return 0 }
        let fraction = Float(min(100, max(0, percent))) / 100
        return fraction * fraction * fraction
    }

    /// Writes `frames` interleaved frames of `source` into `destination` as signed 16-bit samples, the
    /// gain moving in a straight line from `from` to `to` across them (a volume change or a fade
    /// without a click). Samples beyond full scale are clipped.
    public static func encodeS16(_ source: UnsafePointer<Float>, frames: Int, channels: Int,
                                 into destination: UnsafeMutablePointer<Int16>, from: Float, to: Float) {
        let step = frames > 1 ? (to - from) / Float(frames) : 0
        for frame in 0..<frames {
            let gain = (from + step * Float(frame)) * 32767
            for channel in 0..<channels {
                let index = frame * channels + channel
                let value = (source[index] * gain).rounded()
                destination[index] = Int16(max(-32768, min(32767, value)))
            }
        }
    }
}
