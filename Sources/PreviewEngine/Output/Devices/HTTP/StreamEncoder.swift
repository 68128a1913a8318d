import CFFmpeg
import PreviewCore

/// Encodes the stream once for every listener with Debian's FFmpeg: MP3 through libmp3lame (each
/// unit one MP3 frame, so a listener may start at any unit), Opus through libopus in Ogg (libavformat's
/// muxer writing into memory through `write`: FFmpeg opens nothing; each unit whole Ogg pages, and
/// `header` the pages every listener gets first). Interleaved float PCM in, at the engine's rate;
/// swresample converts it to the encoder's sample format and rate (libopus takes 48 kHz only).
final class StreamEncoder {
    let format: HTTPStreamAddress.Format
    /// The Ogg header pages (OpusHead, OpusTags); empty for MP3.
    private(set) var header: [UInt8] = []
    /// Encoded units not yet taken (`take`): whole MP3 frames or whole Ogg pages.
    private var units: [[UInt8]] = []

    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private let frame: Frame
    private let packet: Packet
    private let frameSize: Int
    private var filled = 0
    private var nextPTS: Int64 = 0
    private let bytesPerSample: Int
    private let planar: Bool
    private let channels: Int
    // The Ogg muxer, writing into `muxed` through an AVIO context of ours.
    private var muxer: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    fileprivate var muxed: [UInt8] = []

    /// An encoder for `format` at `bitrate` kbit/s, taking `input` PCM. Throws when FFmpeg lacks the
    /// encoder or refuses the settings.
    init(format: HTTPStreamAddress.Format, bitrate: Int, input: PCMFormat) throws(FFmpegError) {
        self.format = format
        channels = input.channels
        frame = try Frame()
        packet = try Packet()
        let name = format == .mp3 ? "libmp3lame" : "libopus"
        guard let encoder = avcodec_find_encoder_by_name(name) else {
            throw FFmpegError(code: cff_AVERROR(ENOSYS), function: "avcodec_find_encoder_by_name(\(name))")
        }
        guard let context = avcodec_alloc_context3(encoder) else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "avcodec_alloc_context3") }
        codec = context
        let rate = format == .opus ? 48_000 : Self.mp3Rate(for: input.sampleRate)
        let sampleFormat = encoder.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        context.pointee.sample_fmt = sampleFormat
        context.pointee.sample_rate = Int32(rate)
        context.pointee.bit_rate = Int64(bitrate) * 1000
        context.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        av_channel_layout_default(&context.pointee.ch_layout, Int32(input.channels))
        if format == .opus { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try FFmpegError.check(avcodec_open2(context, encoder, nil), "avcodec_open2(\(name))")
        frameSize = Int(context.pointee.frame_size > 0 ? context.pointee.frame_size : 1152)
        bytesPerSample = Int(av_get_bytes_per_sample(sampleFormat))
        planar = av_sample_fmt_is_planar(sampleFormat) != 0

        frame.pointer.pointee.nb_samples = Int32(frameSize)
        frame.pointer.pointee.format = sampleFormat.rawValue
        frame.pointer.pointee.sample_rate = Int32(rate)
        try FFmpegError.check(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &context.pointee.ch_layout), "av_channel_layout_copy")
        try FFmpegError.check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")

        var inLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(input.channels))
        defer { av_channel_layout_uninit(&inLayout) }
        try FFmpegError.check(swr_alloc_set_opts2(&resampler, &context.pointee.ch_layout, sampleFormat, Int32(rate),
                                                  &inLayout, AV_SAMPLE_FMT_FLT, Int32(input.sampleRate), 0, nil), "swr_alloc_set_opts2")
        try FFmpegError.check(swr_init(resampler), "swr_init")
        if format == .opus { try openMuxer(context) }
    }

    deinit {
        swr_free(&resampler)
        avcodec_free_context(&codec)
        if let muxer { avformat_free_context(muxer) }
        if io != nil {
            av_freep(&io!.pointee.buffer)
            avio_context_free(&io)
        }
    }

    /// libmp3lame's rates; the engine's rate when it is one, else 48 kHz.
    private static func mp3Rate(for rate: Int) -> Int {
        [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000].contains(rate) ? rate : 48_000
    }

    /// Encodes `frames` interleaved frames of `samples` (nil: silence); the units made are `take`n.
    func encode(_ samples: UnsafePointer<Float>?, frames: Int) {
        guard let resampler, frames > 0 else { return }
        var remaining = frames
        var source = samples
        let silence = Self.silence
        while remaining > 0 {
            let chunk = samples == nil ? min(remaining, Self.silenceFrames / channels) : remaining
            var input: UnsafePointer<UInt8>? = UnsafeRawPointer(source ?? UnsafePointer(silence)).assumingMemoryBound(to: UInt8.self)
            var count = Int32(chunk)
            repeat {
                var planes = outputPlanes()
                let room = Int32(frameSize - filled)
                let made = withUnsafeMutableBytes(of: &planes) { raw in
                    withUnsafeMutablePointer(to: &input) { inputs in
                        swr_convert(resampler, raw.baseAddress!.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self), room, inputs, count)
                    }
                }
                count = 0   // what did not fit is buffered in swresample; drained by the next rounds
                guard made >= 0 else { return }
                filled += Int(made)
                if filled < frameSize { break }
                sendFrame()
            } while swr_get_out_samples(resampler, 0) >= Int32(frameSize - filled)
            remaining -= chunk
            if let current = source { source = current + chunk * channels }
        }
    }

    /// The units encoded since the last call.
    func take() -> [[UInt8]] {
        defer { units.removeAll(keepingCapacity: true) }
        return units
    }

    /// Where the frame's next samples go, per plane (up to 8 channels).
    private func outputPlanes() -> (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
                                    UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
                                    UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) {
        var data = frame.pointer.pointee.data
        let step = planar ? filled * bytesPerSample : filled * bytesPerSample * channels
        withUnsafeMutableBytes(of: &data) { raw in
            let pointers = raw.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
            for index in 0..<(planar ? min(8, channels) : 1) { pointers[index] = pointers[index].map { $0 + step } }
        }
        return data
    }

    /// Hands the full frame to the encoder and collects what comes out.
    private func sendFrame() {
        guard let codec else { return }
        filled = 0
        guard av_frame_make_writable(frame.pointer) >= 0 else { return }
        frame.pointer.pointee.pts = nextPTS
        nextPTS += Int64(frameSize)
        guard avcodec_send_frame(codec, frame.pointer) >= 0 else { return }
        while avcodec_receive_packet(codec, packet.pointer) >= 0 {
            defer { packet.unref() }
            if let muxer, let stream = muxer.pointee.streams[0] {
                av_packet_rescale_ts(packet.pointer, codec.pointee.time_base, stream.pointee.time_base)
                packet.pointer.pointee.stream_index = 0
                guard av_write_frame(muxer, packet.pointer) >= 0 else { continue }
                avio_flush(io)
                if !muxed.isEmpty { units.append(muxed); muxed.removeAll(keepingCapacity: true) }
            } else {
                units.append(Array(UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))))
            }
        }
    }

    /// libavformat's Ogg muxer over an AVIO context that writes into `muxed`; its header pages
    /// become `header`. Pages are cut every 40 ms (two Opus packets), not every second.
    private func openMuxer(_ codec: UnsafeMutablePointer<AVCodecContext>) throws(FFmpegError) {
        var made: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&made, nil, "ogg", nil), "avformat_alloc_output_context2(ogg)")
        muxer = made
        guard let muxer, let stream = avformat_new_stream(muxer, nil) else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "avformat_new_stream") }
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, codec), "avcodec_parameters_from_context")
        stream.pointee.time_base = codec.pointee.time_base
        let size = 1 << 17   // an Ogg page is at most 65,307 bytes: a flush never splits one
        guard let buffer = av_malloc(size) else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "av_malloc") }
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 1,
                                Unmanaged.passUnretained(self).toOpaque(), nil, muxWrite, nil)
        guard let io else {
            av_free(buffer)
            throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "avio_alloc_context")
        }
        muxer.pointee.pb = io
        var options: OpaquePointer?
        av_dict_set(&options, "page_duration", "40000", 0)
        defer { av_dict_free(&options) }
        try FFmpegError.check(avformat_write_header(muxer, &options), "avformat_write_header(ogg)")
        avio_flush(io)
        header = muxed
        muxed.removeAll(keepingCapacity: true)
    }

    /// Zeros for silence, fed in chunks.
    private static let silenceFrames = 4096
    nonisolated(unsafe) private static let silence: UnsafeMutablePointer<Float> = {
        let zeros = UnsafeMutablePointer<Float>.allocate(capacity: silenceFrames)
        zeros.initialize(repeating: 0, count: silenceFrames)
        return zeros
    }()
}

/// The Ogg muxer's output: appended to the encoder's `muxed` (the encoder owns the AVIO context, so
/// it outlives every call).
private func muxWrite(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer, size > 0 else { return 0 }
    let encoder = Unmanaged<StreamEncoder>.fromOpaque(opaque).takeUnretainedValue()
    encoder.muxed.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(size)))
    return size
}
