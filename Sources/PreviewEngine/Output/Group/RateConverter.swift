import CFFmpeg
import PreviewCore

/// Owns a SwrContext converting the group's interleaved float32 PCM to a follower's rate and
/// channels (an output that takes another format than the one the decoders make: FFmpeg's
/// swresample, as the decoders use). Its output goes to a scratch buffer allocated once.
final class RateConverter {
    let from: PCMFormat
    let to: PCMFormat
    private var context: OpaquePointer?
    /// Converted frames of one `convert` call.
    let scratch: UnsafeMutablePointer<Float>
    let scratchFrames: Int
    /// Input frames converted per swr call, so `scratch` always holds the output.
    static let chunkFrames = 1_024

    /// A converter between the two formats; nil when swresample cannot make one.
    init?(from: PCMFormat, to: PCMFormat) {
        self.from = from
        self.to = to
        var inLayout = AVChannelLayout()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(from.channels))
        av_channel_layout_default(&outLayout, Int32(to.channels))
        defer { av_channel_layout_uninit(&inLayout); av_channel_layout_uninit(&outLayout) }
        var made: OpaquePointer?
        guard swr_alloc_set_opts2(&made, &outLayout, AV_SAMPLE_FMT_FLT, Int32(to.sampleRate),
                                  &inLayout, AV_SAMPLE_FMT_FLT, Int32(from.sampleRate), 0, nil) >= 0, made != nil,
              swr_init(made) >= 0 else {
            swr_free(&made)
            return nil
        }
        context = made
        // The chunk at the new rate, and what the filter may still hold (a few dozen frames).
        scratchFrames = Self.chunkFrames * to.sampleRate / max(1, from.sampleRate) + 256
        scratch = .allocate(capacity: scratchFrames * to.channels)
    }

    deinit {
        swr_free(&context)
        scratch.deallocate()
    }

    /// Converts `frames` frames (at most `chunkFrames`) into `scratch`; returns how many came out.
    func convert(_ source: UnsafePointer<Float>, frames: Int) -> Int {
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: UInt8.self)
        var input: UnsafePointer<UInt8>? = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
        let n = swr_convert(context, &out, Int32(scratchFrames), &input, Int32(min(frames, Self.chunkFrames)))
        return max(0, Int(n))
    }

    /// Forgets what the filter holds (after a cancel: the old sound must not leak into the new).
    func reset() {
        swr_close(context)
        swr_init(context)
    }
}
