import CFFmpeg
import PreviewCore

/// A small RGB picture of an artwork file for previewctl to draw: decoded with FFmpeg's own JPEG or
/// PNG decoder and scaled down with libswscale (area averaging), so previewctl links no FFmpeg.
enum ArtworkThumbnail {
    /// `bytes` (a JPEG or PNG) scaled to fit `width`×`height`, keeping its shape.
    static func make(from bytes: [UInt8], fitting width: Int, _ height: Int) throws(ArtworkError) -> ArtworkReport {
        guard let kind = ArtworkSource.kind(of: bytes) else { throw ArtworkError("not a JPEG or PNG") }
        return try FFmpegLog.quietly { () throws(ArtworkError) -> ArtworkReport in
            let frame = try decode(bytes, codec: kind == .jpeg ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG)
            defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
            let (w, h) = (Int(frame.pointee.width), Int(frame.pointee.height))
            guard (1...16384).contains(w), (1...16384).contains(h) else { throw ArtworkError("image of \(w)×\(h) pixels") }
            let scale = min(Double(width) / Double(w), Double(height) / Double(h))
            let outW = max(1, Int((Double(w) * scale).rounded())), outH = max(1, Int((Double(h) * scale).rounded()))
            var rgb = [UInt8](repeating: 0, count: outW * outH * 3)
            let status = rgb.withUnsafeMutableBufferPointer { cff_frame_to_rgb24(frame, $0.baseAddress, Int32(outW), Int32(outH)) }
            guard status == 0 else { throw ArtworkError("cannot scale the image (\(FFmpegError(code: status, function: "").message))") }
            return ArtworkReport(width: outW, height: outH, rgb: rgb)
        }
    }

    /// The one picture in `bytes`.
    private static func decode(_ bytes: [UInt8], codec id: AVCodecID) throws(ArtworkError) -> UnsafeMutablePointer<AVFrame> {
        guard let codec = avcodec_find_decoder(id), let context = avcodec_alloc_context3(codec) else {
            throw ArtworkError("no image decoder in this FFmpeg")
        }
        var contextPointer: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&contextPointer) }
        guard avcodec_open2(context, codec, nil) >= 0, let packet = av_packet_alloc() else { throw ArtworkError("cannot open the image decoder") }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        guard av_new_packet(packet, Int32(bytes.count)) >= 0 else { throw ArtworkError("out of memory") }
        bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        guard let frame = av_frame_alloc() else { throw ArtworkError("out of memory") }
        _ = avcodec_send_packet(context, packet)
        _ = avcodec_send_packet(context, nil)   // the end: the decoder gives what it has
        let status = avcodec_receive_frame(context, frame)
        guard status >= 0 else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw ArtworkError("broken image (\(FFmpegError(code: status, function: "").message))")
        }
        return frame
    }
}
