import CFFmpeg

/// SHA-256 from libavutil (linked for FFmpeg anyway): names the disk cache's files.
enum SHA256 {
    /// The lowercase hexadecimal digest of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        guard let context = av_sha_alloc() else { preconditionFailure("av_sha_alloc: out of memory") }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        av_sha_init(context, 256)
        bytes.withUnsafeBufferPointer { av_sha_update(context, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
