import CFFmpeg
import PreviewCore

/// Owns a SwrContext converting a decoder's frames to the interleaved float32 `PCMFormat` the output
/// chose, into a scratch buffer allocated once and grown only if a frame is larger than any before.
/// A frame already at the output's rate and layout is not resampled: swresample only interleaves
/// its planes (it makes no resampler when the rates are equal).
///
/// Frames may change shape mid-stream: an MP3 stream can switch between stereo and mono or change
/// its sample rate from one frame to the next, and HE-AAC v2 with implicit signalling turns mono
/// into stereo at its first frame. Each frame's own layout, rate and sample format are checked; on a
/// change, what the old configuration still holds is flushed out first and the context is set up
/// again, so the output stays continuous, at the right speed, in the output's format.
final class Resampler {
    let format: PCMFormat
    /// The converter; nil only until the first configuration succeeds.
    private var context: OpaquePointer?
    private(set) var scratch: UnsafeMutablePointer<Float>
    private var scratchFrames: Int
    /// The input `context` is set up for.
    private var inputLayout = AVChannelLayout()
    private var inputRate: Int32 = 0
    private var inputFormat: Int32 = -1

    /// A resampler from `decoder`'s announced output to `format`; frames of another shape reconfigure it.
    init(from decoder: UnsafeMutablePointer<AVCodecContext>, to format: PCMFormat) throws(FFmpegError) {
        self.format = format
        scratchFrames = 4096
        scratch = .allocate(capacity: scratchFrames * format.channels)
        try configure(layout: decoder.pointee.ch_layout, rate: decoder.pointee.sample_rate,
                      sampleFormat: decoder.pointee.sample_fmt.rawValue)
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&inputLayout)
        scratch.deallocate()
    }

    /// Converts `frame` (nil: flush what the resampler holds) into `scratch`; returns the frame count.
    func convert(_ frame: Frame?) throws(FFmpegError) -> Int {
        guard let frame = frame?.pointer else { return try run(nil, at: 0) }
        var written = 0
        if !matches(frame) {
            written = try run(nil, at: 0)   // the old shape's last samples come first
            try configure(layout: frame.pointee.ch_layout, rate: frame.pointee.sample_rate, sampleFormat: frame.pointee.format)
        }
        return written + (try run(frame, at: written))
    }

    /// True when `frame` has the layout, rate and sample format the context is set up for.
    private func matches(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        guard frame.pointee.sample_rate == inputRate, frame.pointee.format == inputFormat else { return false }
        var layout = Self.usable(frame.pointee.ch_layout)
        defer { av_channel_layout_uninit(&layout) }
        return av_channel_layout_compare(&layout, &inputLayout) == 0
    }

    /// Sets the context up for input of this shape (a layout without channel order counts as the
    /// default layout of its channel count).
    private func configure(layout: AVChannelLayout, rate: Int32, sampleFormat: Int32) throws(FFmpegError) {
        guard rate > 0, sampleFormat >= 0 else { throw FFmpegError(code: cff_AVERROR_INVALIDDATA(), function: "swr_init") }
        av_channel_layout_uninit(&inputLayout)
        inputLayout = Self.usable(layout)
        inputRate = rate
        inputFormat = sampleFormat
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(format.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        // A fresh context, taken only once it works: on bad parameters (hostile input can give them)
        // swr_alloc_set_opts2 frees the context it was handed, so it is never handed the one in use.
        var fresh: OpaquePointer?
        try FFmpegError.check(swr_alloc_set_opts2(&fresh, &outLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate),
                                                  &inputLayout, AVSampleFormat(sampleFormat), rate, 0, nil), "swr_alloc_set_opts2")
        guard let made = fresh else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "swr_alloc_set_opts2") }
        let initialized = swr_init(made)
        guard initialized >= 0 else {
            swr_free(&fresh)
            throw FFmpegError(code: initialized, function: "swr_init")
        }
        swr_free(&context)
        context = made
    }

    /// A copy of `layout` that swresample accepts: the default layout of its channel count when it
    /// has no channel order (or no channels: then mono).
    private static func usable(_ layout: AVChannelLayout) -> AVChannelLayout {
        var copy = AVChannelLayout()
        var source = layout
        if source.order == AV_CHANNEL_ORDER_UNSPEC || source.nb_channels <= 0 || av_channel_layout_copy(&copy, &source) < 0 {
            av_channel_layout_default(&copy, max(1, source.nb_channels))
        }
        return copy
    }

    /// Converts `frame` (nil: flush) into `scratch` after its first `offset` frames; returns the count.
    private func run(_ frame: UnsafeMutablePointer<AVFrame>?, at offset: Int) throws(FFmpegError) -> Int {
        guard let context else { throw FFmpegError(code: cff_AVERROR_INVALIDDATA(), function: "swr_convert") }
        let inFrames = frame.map { Int($0.pointee.nb_samples) } ?? 0
        let needed = offset + Int(swr_get_out_samples(context, Int32(inFrames)))
        if needed > scratchFrames {  // rare: only a frame larger than every earlier one
            let grown = UnsafeMutablePointer<Float>.allocate(capacity: needed * format.channels)
            grown.update(from: scratch, count: offset * format.channels)
            scratch.deallocate()
            scratch = grown
            scratchFrames = needed
        }
        var out: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(scratch + offset * format.channels)
            .assumingMemoryBound(to: UInt8.self)
        let input = frame.map { UnsafeMutableRawPointer($0.pointee.extended_data!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self) }
        let converted = swr_convert(context, &out, Int32(scratchFrames - offset), input, Int32(inFrames))
        return Int(try FFmpegError.check(converted, "swr_convert"))
    }
}
