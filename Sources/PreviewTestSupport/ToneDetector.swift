import Foundation

/// Tells which of a few sine tones sounds in a window of mono samples (Goertzel power per frequency),
/// or that it is silent. Fixtures use one frequency per track, so this names the track being heard.
public struct ToneDetector: Sendable {
    /// The candidate frequencies in Hz.
    public var frequencies: [Double]
    /// Sample rate of the windows given.
    public var sampleRate: Double
    /// RMS below which a window counts as silence.
    public var silenceRMS: Float = 0.003

    /// A detector for `frequencies` at `sampleRate`.
    public init(frequencies: [Double], sampleRate: Double) {
        self.frequencies = frequencies
        self.sampleRate = sampleRate
    }

    /// Root mean square of `samples`.
    public static func rms(_ samples: ArraySlice<Float>) -> Float {
        guard !samples.isEmpty else { return 0 }
        var sum: Float = 0
        for s in samples { sum += s * s }
        return (sum / Float(samples.count)).squareRoot()
    }

    /// Goertzel power of `frequency` in `samples`, normalised by the window length.
    public func power(of frequency: Double, in samples: ArraySlice<Float>) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        let coeff = 2 * cos(omega)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = Double(x) + coeff * s1 - s2
            s2 = s1
            s1 = s0
        }
        let p = s1 * s1 + s2 * s2 - coeff * s1 * s2
        return p / Double(max(1, samples.count * samples.count))
    }

    /// The dominant candidate frequency, or nil when the window is silent or no candidate clearly dominates.
    public func dominantTone(in samples: ArraySlice<Float>) -> Double? {
        guard Self.rms(samples) >= silenceRMS else { return nil }
        let powers = frequencies.map { power(of: $0, in: samples) }
        guard let best = powers.indices.max(by: { powers[$0] < powers[$1] }) else { return nil }
        let others = powers.enumerated().filter { $0.offset != best }.map(\.element).max() ?? 0
        return powers[best] > 10 * others ? frequencies[best] : nil
    }
}
