import CFFmpeg

/// Owns an AVFormatContext opened over an `AVIOBridge`: the mov demuxer named (no probing), only the
/// MP4 family allowed, no protocols, and an interrupt callback wired to a `CancellationFlag`.
final class FormatInput {
    /// The demuxers previews may use.
    static let formatWhitelist = "mov,mp4,m4a,3gp,3g2,mj2"
    /// The decoders previews may use.
    static let codecWhitelist = "aac,aac_fixed,mp3,mp3float"

    let context: UnsafeMutablePointer<AVFormatContext>
    private let io: AVIOBridge                 // must outlive `context`, which borrows its AVIOContext
    private let cancellation: CancellationFlag // the interrupt callback's opaque pointer

    /// Opens the container in `source` (its first `byteLimit` bytes, when given); reads only the
    /// header (moov), not the media.
    init(source: PreviewBytes, cancellation: CancellationFlag, byteLimit: Int? = nil) throws(DecodeError) {
        self.cancellation = cancellation
        do { io = try AVIOBridge(source: source, cancellation: cancellation, byteLimit: byteLimit) } catch { throw .ffmpeg(error) }
        guard let allocated = avformat_alloc_context() else {
            throw .ffmpeg(FFmpegError(code: cff_AVERROR(ENOMEM), function: "avformat_alloc_context"))
        }
        allocated.pointee.pb = io.context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        allocated.pointee.interrupt_callback = AVIOInterruptCB(
            callback: formatInterrupt, opaque: Unmanaged.passUnretained(cancellation).toOpaque())

        var ctx: UnsafeMutablePointer<AVFormatContext>? = allocated
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", Self.formatWhitelist, 0)
        av_dict_set(&options, "codec_whitelist", Self.codecWhitelist, 0)
        av_dict_set(&options, "protocol_whitelist", "none", 0)   // no protocol is ever opened
        av_dict_set(&options, "probesize", "32768", 0)
        let result = avformat_open_input(&ctx, nil, av_find_input_format("mov"), &options)
        av_dict_free(&options)
        guard result >= 0, let opened = ctx else {  // on failure FFmpeg freed the context
            if let fetchError = io.lastFetchError { throw fetchError == .cancelled ? .cancelled : .fetch(fetchError) }
            if cancellation.isCancelled { throw .cancelled }
            throw .ffmpeg(FFmpegError(code: result, function: "avformat_open_input"))
        }
        context = opened
        // The demuxer may give up quietly on a failed read and return no streams: say what really happened.
        if let fetchError = io.lastFetchError { throw fetchError == .cancelled ? .cancelled : .fetch(fetchError) }
        if cancellation.isCancelled { throw .cancelled }
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
    }

    /// The best audio stream; every other stream is discarded so its packets are not returned.
    func selectAudioStream() throws(DecodeError) -> UnsafeMutablePointer<AVStream> {
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0 else { throw .noAudioStream }
        for i in 0..<Int(context.pointee.nb_streams) where i != Int(index) {
            context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
        return context.pointee.streams[Int(index)]!
    }

    /// Reads the next packet into `packet`. False at end of stream.
    func read(into packet: Packet) throws(DecodeError) -> Bool {
        let result = av_read_frame(context, packet.pointer)
        if result >= 0 { return true }
        if result == cff_AVERROR_EOF() { return false }
        throw failure(result, "av_read_frame")
    }

    /// The error to report for `code`: the parked fetch error or a cancel wins over FFmpeg's code.
    func failure(_ code: Int32, _ function: String) -> DecodeError {
        if let fetchError = io.lastFetchError { return fetchError == .cancelled ? .cancelled : .fetch(fetchError) }
        if cancellation.isCancelled || code == cff_AVERROR_EXIT() { return .cancelled }
        return .ffmpeg(FFmpegError(code: code, function: function))
    }

    /// The container's duration in milliseconds, when it states one.
    var durationMs: Int? {
        let d = context.pointee.duration
        guard d > 0, d != cff_AV_NOPTS_VALUE() else { return nil }
        return Int(d / 1000)
    }
}

private func formatInterrupt(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<CancellationFlag>.fromOpaque(opaque).takeUnretainedValue().isCancelled ? 1 : 0
}
