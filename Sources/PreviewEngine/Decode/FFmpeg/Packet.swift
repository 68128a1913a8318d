import CFFmpeg

/// Owns one AVPacket, allocated once and reused for every read (av_packet_unref between uses).
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(FFmpegError) {
        guard let p = av_packet_alloc() else { throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "av_packet_alloc") }
        pointer = p
    }

    /// Drops the payload of the last read, keeping the packet for the next one.
    func unref() { av_packet_unref(pointer) }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}
