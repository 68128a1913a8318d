/// Why a preview could not be decoded. `message` is the one line a user sees.
public enum DecodeError: Error, Equatable, Sendable {
    /// The download failed; the decoder saw the fetch error through the AVIO bridge.
    case fetch(FetchError)
    /// FFmpeg refused the bytes (not an MP4, corrupt, truncated...), with its message.
    case ffmpeg(FFmpegError)
    /// The file has no audio stream.
    case noAudioStream
    /// The audio codec is not one previews use (AAC, MP3).
    case unsupportedCodec(String)
    /// The file decoded to no audio at all.
    case noAudio
    /// The load was cancelled.
    case cancelled

    /// One line for the user.
    public var message: String {
        switch self {
        case .fetch(let e): return e.message
        case .ffmpeg(let e): return "not a playable preview (\(e.function): \(e.message))"
        case .noAudioStream: return "the preview has no audio stream"
        case .unsupportedCodec(let name): return "the preview's codec \(name) is not supported (AAC and MP3 are)"
        case .noAudio: return "the preview contains no audio"
        case .cancelled: return "cancelled"
        }
    }
}
