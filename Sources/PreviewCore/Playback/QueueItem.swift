/// One entry of the play queue: a track and what previewd has learned about playing it.
public struct QueueItem: Codable, Equatable, Sendable {
    /// Whether the item can still be played.
    public enum Status: Equatable, Sendable {
        /// Not tried yet, or played fine.
        case ok
        /// Loading or decoding failed; the message says why. Failed items are skipped.
        case failed(String)
    }

    /// The catalog entry.
    public var track: Track
    /// Whether it failed.
    public var status: Status

    /// A fresh item for `track`.
    public init(track: Track, status: Status = .ok) {
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

    private enum CodingKeys: String, CodingKey { case track, failed, error }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        track = try c.decode(Track.self, forKey: .track)
        if let message = try c.decodeIfPresent(String.self, forKey: .error) {
            status = .failed(message)
        } else {
            status = .ok
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(track, forKey: .track)
        try c.encode(failure != nil, forKey: .failed)
        try c.encodeIfPresent(failure, forKey: .error)
    }
}
