/// What a catalog command does with the tracks it finds: replace the queue or append to it, start
/// playing or not, and in which order.
public struct Enqueue: Codable, Equatable, Hashable, Sendable {
    /// Append to the queue instead of replacing it.
    public var append: Bool
    /// Start playing (a replaced queue from its first track; an appended one only when nothing plays).
    public var play: Bool
    /// Order of the results and of the queued tracks; Apple's when nil.
    public var sort: TrackSort?

    /// Replace and play, in Apple's order, unless told otherwise.
    public init(append: Bool = false, play: Bool = true, sort: TrackSort? = nil) {
        self.append = append
        self.play = play
        self.sort = sort
    }
}
