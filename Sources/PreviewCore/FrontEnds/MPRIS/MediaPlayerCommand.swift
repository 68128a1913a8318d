/// What a desktop media control (MPRIS2) asks for, and the control command that does it.
public enum MediaPlayerCommand: Equatable, Sendable {
    case play, pause, playPause, stop, next, previous
    /// Move by this many µs (MPRIS Seek).
    case seek(offsetMicroseconds: Int64)
    /// Go to this position, in µs, in the current track (MPRIS SetPosition; the track id was checked).
    case setPosition(microseconds: Int64)
    /// LoopStatus written (None, Track, Playlist: repeat off, one, all).
    case setLoop(RepeatMode)
    case setShuffle(Bool)
    /// Volume written, 0…1.
    case setVolume(Double)
    /// Quit: previewd shuts down as on SIGTERM (not a control command).
    case quit

    /// The control command with the same effect; nil for `quit`.
    public var controlCommand: ControlCommand? {
        switch self {
        case .play: return .play(nil)
        case .pause: return .pause
        case .playPause: return .toggle
        case .stop: return .stop
        case .next: return .next
        case .previous: return .prev
        case .seek(let offset): return .seek(.relative(ms: Int(clamping: offset / 1000)))
        case .setPosition(let position): return .seek(.absolute(ms: Int(clamping: position / 1000)))
        case .setLoop(let mode): return .setRepeat(mode)
        case .setShuffle(let on): return .setShuffle(on)
        case .setVolume(let level): return .volume(.set(Int((min(1, max(0, level)) * 100).rounded())))
        case .quit: return nil
        }
    }
}
