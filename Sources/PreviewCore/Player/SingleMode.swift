/// What happens when the current track ends, as MPD's `single`: go on (off), stop there (on; with
/// repeat on, play the same track again), or do that once and turn itself off (oneshot).
public enum SingleMode: String, Codable, Sendable, CaseIterable {
    /// Playback goes on to the next track.
    case off
    /// Playback stops at the end of the current track (with repeat on: that track again).
    case on
    /// As `on`, once; then single turns itself off.
    case oneshot
}
