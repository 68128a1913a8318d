import CFFmpeg

/// Owns one AVFrame, allocated once and reused for every decoded frame.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(FFmpegError) {
        guard let p = av_frame_alloc() else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "av_frame_alloc") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }
}
