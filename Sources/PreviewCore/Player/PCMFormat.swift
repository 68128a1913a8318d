/// The PCM format inside the engine: interleaved float32 at the rate and channel count the output
/// chose at start. Decoders convert into it (resampling only when a preview's own rate differs) and
/// the output takes it as it is, so no stage converts twice.
public struct PCMFormat: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int

    /// What an output asks for when the device takes anything: 44.1 kHz stereo, the rate of every
    /// iTunes preview, so none is resampled.
    public static let preferred = PCMFormat(sampleRate: 44_100, channels: 2)

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

    /// "44100 Hz, 2 channels".
    public var description: String { "\(sampleRate) Hz, \(channels) channel\(channels == 1 ? "" : "s")" }
}
