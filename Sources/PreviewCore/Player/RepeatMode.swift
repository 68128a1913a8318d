/// What happens at the end of a track and of the queue.
public enum RepeatMode: String, Codable, Sendable, CaseIterable {
    /// Stop after the last track.
    case off
    /// Play the current track again (an explicit `next` still moves on).
    case one
    /// Start over after the last track.
    case all
}
