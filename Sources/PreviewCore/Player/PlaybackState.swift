/// The transport's state as clients see it (`status.state`).
public enum PlaybackState: String, Codable, Sendable, CaseIterable {
    /// Nothing has been played yet.
    case idle
    /// A track is being fetched and opened.
    case loading
    /// Sound is going out.
    case playing
    /// Output is corked; position is kept.
    case paused
    /// Playback ended or was stopped; the queue is kept.
    case stopped
}
