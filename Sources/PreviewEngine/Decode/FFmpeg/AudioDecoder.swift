import CFFmpeg

/// Owns the AVCodecContext of one audio stream, opened with libavcodec's native decoder.
final class AudioDecoder {
    /// Codecs previews use; anything else is refused before a decoder is opened.
    static let allowedCodecs: Set<AVCodecID> = [AV_CODEC_ID_AAC, AV_CODEC_ID_MP3]

    let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens a decoder for `stream` (borrowed from the format context).
    init(stream: UnsafeMutablePointer<AVStream>) throws(DecodeError) {
        let parameters = stream.pointee.codecpar!
        let id = parameters.pointee.codec_id
        guard Self.allowedCodecs.contains(id) else {
            throw .unsupportedCodec(String(cString: avcodec_get_name(id)))
        }
        guard let codec = avcodec_find_decoder(id), let ctx = avcodec_alloc_context3(codec) else {
            throw .unsupportedCodec(String(cString: avcodec_get_name(id)))
        }
        do {
            try FFmpegError.check(avcodec_parameters_to_context(ctx, parameters), "avcodec_parameters_to_context")
            ctx.pointee.pkt_timebase = stream.pointee.time_base
            var options: OpaquePointer?
            av_dict_set(&options, "codec_whitelist", FormatInput.codecWhitelist, 0)
            defer { av_dict_free(&options) }
            try FFmpegError.check(avcodec_open2(ctx, codec, &options), "avcodec_open2")
        } catch {
            var p: UnsafeMutablePointer<AVCodecContext>? = ctx
            avcodec_free_context(&p)
            throw .ffmpeg(error)
        }
        context = ctx
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&p)
    }

    /// Sends `packet` (nil: drain). False when the decoder wants its output read first (EAGAIN).
    func send(_ packet: Packet?) throws(FFmpegError) -> Bool {
        let result = avcodec_send_packet(context, packet?.pointer)
        if result == cff_AVERROR_EAGAIN() { return false }
        if result == cff_AVERROR_EOF() { return true }   // already draining
        try FFmpegError.check(result, "avcodec_send_packet")
        return true
    }

    /// Receives the next frame into `frame`. False when it needs more input or is fully drained.
    func receive(into frame: Frame) throws(FFmpegError) -> Bool {
        let result = avcodec_receive_frame(context, frame.pointer)
        if result == cff_AVERROR_EAGAIN() || result == cff_AVERROR_EOF() { return false }
        try FFmpegError.check(result, "avcodec_receive_frame")
        return true
    }
}
