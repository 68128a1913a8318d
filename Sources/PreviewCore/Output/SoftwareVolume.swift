/// Volume applied to the samples themselves, for outputs that have no mixer of their own (Snapcast,
/// a FIFO, ALSA without `--alsa-mixer`); `SampleEncoding.encode` applies it. The same scale as PulseAudio's stream volume, so `volume 50` sounds alike on every output:
/// PulseAudio's percent is cubic in amplitude (50 % ≈ -18 dB).
public enum SoftwareVolume {
    /// The linear gain for `percent` (0–100) and `muted`.
    public static func gain(percent: Int, muted: Bool) -> Float {
        guard !muted else { return 0 }
        let fraction = Float(min(100, max(0, percent))) / 100
        return fraction * fraction * fraction
    }
}
