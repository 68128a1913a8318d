/// The one PCM format inside the engine: interleaved float32, stereo. Decoders resample into it and
/// the output stream is opened with it, so no stage converts twice.
public struct PCMFormat: Equatable, Hashable, Sendable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int

    /// The engine's default: 48 kHz stereo.
    public static let engine = PCMFormat(sampleRate: 48_000, channels: 2)

    /// A format with the given rate and channel count.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes in one frame (one float per channel).
    public var bytesPerFrame: Int { channels * MemoryLayout<Float>.size }

    /// Frames in `milliseconds`.
    public func frames(milliseconds: Int) -> Int { sampleRate * milliseconds / 1000 }

    /// Milliseconds in `frames`.
    public func milliseconds(frames: Int) -> Int { Int(Int64(frames) * 1000 / Int64(sampleRate)) }
}
