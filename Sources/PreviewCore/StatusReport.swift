/// The answer to `status` (and to every transport command, after it is applied).
public struct StatusReport: Codable, Equatable, Sendable {
    /// idle, loading, playing, paused or stopped.
    public var state: PlaybackState
    /// The current queue index, 0-based, or nil.
    public var index: Int?
    /// What has been heard of the current track, in milliseconds.
    public var positionMs: Int
    /// The current track's real duration once known (from the decoder), else the catalog's, else nil.
    public var durationMs: Int?
    /// Number of queue items.
    public var queueLength: Int
    /// The current queue item's track, with the iTunes field names.
    public var track: Track?
    /// Why the current track or the output failed, if it did.
    public var error: String?
    /// The audio output: "ok", or the reason it is not.
    public var output: String

    private enum CodingKeys: String, CodingKey {
        case state, index, positionMs, durationMs, queueLength, track, error, output
    }

    /// Encodes every key, absent values as `null`, so clients can rely on the keys being there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(index, forKey: .index)
        try c.encode(positionMs, forKey: .positionMs)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(queueLength, forKey: .queueLength)
        try c.encode(track, forKey: .track)
        try c.encode(error, forKey: .error)
        try c.encode(output, forKey: .output)
    }

    /// A report with every field given.
    public init(state: PlaybackState, index: Int?, positionMs: Int, durationMs: Int?, queueLength: Int,
                track: Track?, error: String?, output: String) {
        self.state = state
        self.index = index
        self.positionMs = positionMs
        self.durationMs = durationMs
        self.queueLength = queueLength
        self.track = track
        self.error = error
        self.output = output
    }
}
