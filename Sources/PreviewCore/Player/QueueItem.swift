/// One entry of the play queue: a track and what previewd has learned about playing it.
public struct QueueItem: Codable, Equatable, Sendable {
    /// Whether the item can still be played.
    public enum Status: Equatable, Sendable {
        /// Not tried yet, or played fine.
        case ok
        /// Loading or decoding failed; the message says why. Failed items are skipped.
        case failed(String)
    }

    /// Given when the item entered the queue, never reused while previewd runs: the item keeps it
    /// whatever is moved or removed around it.
    public let id: Int
    /// The catalog entry.
    public var track: Track
    /// Whether it failed.
    public var status: Status
    /// MPD's priority, 0–255: in a shuffled order, higher plays sooner (0: none).
    public var priority = 0
    /// The preview's length as decoded (priming and padding trimmed), once a decoder read it
    /// whole; until then front-ends show `PreviewLength.estimateMs`.
    public var previewMs: Int?
    /// Why radio queued it (nil: the listener did); shown by `queue`, `status` and the players.
    public var reason: RadioReason?

    /// An item for `track` with `id`.
    public init(track: Track, id: Int = 0, status: Status = .ok) {
        self.id = id
        self.track = track
        self.status = status
    }

    /// True when the item has a fetchable preview and has not failed.
    public var isPlayable: Bool {
        guard track.fetchablePreviewURL != nil else { return false }
        if case .failed = status { return false }
        return true
    }

    /// The failure message, if the item failed.
    public var failure: String? {
        if case .failed(let message) = status { return message }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case id, track, failed, error, priority, previewMs, reason }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int.self, forKey: .id) ?? 0
        track = try c.decode(Track.self, forKey: .track)
        if let message = try c.decodeIfPresent(String.self, forKey: .error) {
            status = .failed(message)
        } else {
            status = .ok
        }
        priority = try c.decodeIfPresent(Int.self, forKey: .priority) ?? 0
        previewMs = try c.decodeIfPresent(Int.self, forKey: .previewMs)
        reason = try c.decodeIfPresent(String.self, forKey: .reason).map { RadioReason($0) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(track, forKey: .track)
        try c.encode(failure != nil, forKey: .failed)
        try c.encodeIfPresent(failure, forKey: .error)
        if priority > 0 { try c.encode(priority, forKey: .priority) }
        try c.encodeIfPresent(previewMs, forKey: .previewMs)
        try c.encodeIfPresent(reason?.text, forKey: .reason)
    }

    /// The length this item plays: the decoded preview's, else the estimate (`PreviewLength`).
    public var playableMs: Int { PreviewLength.ms(track, decodedMs: previewMs) }
}
