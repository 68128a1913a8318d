import CFFmpeg
import PreviewCore

/// Owns a SwrContext converting a decoder's output (any layout, rate, sample format) to the engine's
/// interleaved float32 `PCMFormat`, into a scratch buffer allocated once and grown only if a frame
/// is larger than any before.
final class Resampler {
    let format: PCMFormat
    private let context: OpaquePointer
    private(set) var scratch: UnsafeMutablePointer<Float>
    private var scratchFrames: Int

    /// A resampler from `decoder`'s output to `format`.
    init(from decoder: UnsafeMutablePointer<AVCodecContext>, to format: PCMFormat) throws(FFmpegError) {
        self.format = format
        var inLayout = AVChannelLayout()
        if decoder.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || decoder.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inLayout, max(1, decoder.pointee.ch_layout.nb_channels))
        } else {
            try FFmpegError.check(av_channel_layout_copy(&inLayout, &decoder.pointee.ch_layout), "av_channel_layout_copy")
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(format.channels))
        defer { av_channel_layout_uninit(&outLayout) }

        var swr: OpaquePointer?
        try FFmpegError.check(swr_alloc_set_opts2(&swr, &outLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate),
                                                  &inLayout, decoder.pointee.sample_fmt, decoder.pointee.sample_rate,
                                                  0, nil), "swr_alloc_set_opts2")
        guard let swr else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "swr_alloc_set_opts2") }
        let initResult = swr_init(swr)
        if initResult < 0 {
            var p: OpaquePointer? = swr
            swr_free(&p)
            throw FFmpegError(code: initResult, function: "swr_init")
        }
        context = swr
        scratchFrames = 4096
        scratch = .allocate(capacity: scratchFrames * format.channels)
    }

    deinit {
        var p: OpaquePointer? = context
        swr_free(&p)
        scratch.deallocate()
    }

    /// Converts `frame` (nil: flush what the resampler holds) into `scratch`; returns the frame count.
    func convert(_ frame: Frame?) throws(FFmpegError) -> Int {
        let inFrames = frame.map { Int($0.pointer.pointee.nb_samples) } ?? 0
        let needed = Int(swr_get_out_samples(context, Int32(inFrames)))
        if needed > scratchFrames {  // rare: only a frame larger than every earlier one
            scratch.deallocate()
            scratchFrames = needed
            scratch = .allocate(capacity: scratchFrames * format.channels)
        }
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: UInt8.self)
        let input = frame.map {
            UnsafeMutableRawPointer($0.pointer.pointee.extended_data!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        }
        let converted = swr_convert(context, &out, Int32(scratchFrames), input, Int32(inFrames))
        return Int(try FFmpegError.check(converted, "swr_convert"))
    }
}
