import CFFmpeg

/// The only way bytes reach FFmpeg: an AVIOContext whose read and seek callbacks read a
/// `PreviewBytes` that our own download fills. FFmpeg never opens a URL or a file.
///
/// The callbacks are C functions that find this object through the opaque pointer; nothing throws
/// across the C boundary: a fetch error is parked in `lastFetchError` and an AVERROR is returned.
final class AVIOBridge {
    /// The AVIOContext to hand to the format context (borrowed by it, owned here).
    private(set) var context: UnsafeMutablePointer<AVIOContext>
    private let source: PreviewBytes
    private let cancellation: CancellationFlag
    /// Where the bytes end for this reader, when it may read only a prefix (never waits past it).
    private let byteLimit: Int?
    private var position = 0
    /// The fetch error that ended the last read, for the decoder to report instead of FFmpeg's code.
    private(set) var lastFetchError: FetchError?

    /// Size of the AVIO buffer: small, so the first packets are parsed as soon as they arrive.
    static let bufferSize = 16 * 1024

    /// A bridge over `source`; with `byteLimit`, over its first `byteLimit` bytes only, as if that were all.
    init(source: PreviewBytes, cancellation: CancellationFlag, byteLimit: Int? = nil) throws(FFmpegError) {
        self.source = source
        self.cancellation = cancellation
        self.byteLimit = byteLimit
        guard let buffer = av_malloc(Self.bufferSize) else {
            throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "av_malloc")
        }
        guard let ctx = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0,
                                           nil, avioRead, nil, avioSeek) else {
            av_free(buffer)
            throw FFmpegError(code: cff_AVERROR(ENOMEM), function: "avio_alloc_context")
        }
        context = ctx
        // Unretained: the bridge owns the context and frees it in deinit, so it always outlives it.
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        // The preview is in memory: seeking is cheap, let the demuxer seek directly.
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
    }

    deinit {
        av_freep(&context.pointee.buffer)
        var ctx: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&ctx)
    }

    fileprivate func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        let wanted = min(Int(size), (byteLimit ?? .max) - position)
        guard wanted > 0 else { return cff_AVERROR_EOF() }
        switch source.read(into: buffer, at: position, maxLength: wanted, cancellation: cancellation) {
        case .bytes(let n):
            position += n
            return Int32(n)
        case .end:
            return cff_AVERROR_EOF()
        case .failed(let error):
            lastFetchError = error
            FFmpegLog.readFailed()
            return error == .cancelled ? cff_AVERROR_EXIT() : cff_AVERROR(EIO)
        }
    }

    fileprivate func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let length = byteLimit ?? source.knownLength
        if whence & AVSEEK_SIZE != 0 { return length.map(Int64.init) ?? -1 }
        let base: Int
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END:
            guard let length else { return Int64(cff_AVERROR(ESPIPE)) }
            base = length
        default: return Int64(cff_AVERROR(EINVAL))
        }
        let target = base + Int(offset)
        guard target >= 0 else { return Int64(cff_AVERROR(EINVAL)) }
        position = target
        return Int64(target)
    }
}

private func avioRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer else { return cff_AVERROR(EINVAL) }
    return Unmanaged<AVIOBridge>.fromOpaque(opaque).takeUnretainedValue().read(buffer, size)
}

private func avioSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(cff_AVERROR(EINVAL)) }
    return Unmanaged<AVIOBridge>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
}
