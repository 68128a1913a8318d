/// What `mark` and `unmark` answer: the track they were about (the current one, or the one named)
/// and whether it is on the shortlist now.
public struct MarkReport: Codable, Equatable, Sendable {
    /// The item's place in the queue (0-based).
    public var index: Int
    /// The item's queue id.
    public var id: Int
    /// The track.
    public var track: Track
    /// On the shortlist (the list `marked`) now.
    public var marked: Bool

    public init(index: Int, id: Int, track: Track, marked: Bool) {
        self.index = index
        self.id = id
        self.track = track
        self.marked = marked
    }
}
