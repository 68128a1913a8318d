/// One track held in memory, as `status` shows it.
public struct SlotReport: Codable, Equatable, Sendable {
    /// The queue index.
    public var index: Int
    /// The track's id.
    public var trackId: Int?
    /// "current", "next" or "previous".
    public var role: String
    /// Bytes of the preview downloaded.
    public var bytes: Int
    /// True when the whole preview is in memory.
    public var complete: Bool
    /// "decoding", "ready", "finished" or "failed".
    public var state: String

    /// A report with every field given.
    public init(index: Int, trackId: Int?, role: String, bytes: Int, complete: Bool, state: String) {
        self.index = index
        self.trackId = trackId
        self.role = role
        self.bytes = bytes
        self.complete = complete
        self.state = state
    }
}
