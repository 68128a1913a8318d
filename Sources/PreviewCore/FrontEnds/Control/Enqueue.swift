/// What a command that finds tracks does with them: replace the queue or insert them (at the end,
/// next, or at an index), start playing or not, in which order, or only answer them.
public struct Enqueue: Equatable, Hashable, Sendable {
    /// Append to the queue instead of replacing it.
    public var append: Bool
    /// Start playing (a replaced queue from its first track; an inserted one only when nothing plays).
    public var play: Bool
    /// Order of the results and of the queued tracks; Apple's when nil.
    public var sort: TrackSort?
    /// False: only answer what was found; the queue, its version and playback are untouched.
    public var queue: Bool
    /// Where the tracks go; nil: at the end with `append`, else they replace the queue.
    public var at: InsertPosition?
    /// Replacing the queue: the given list's track to play (`add`'s `"play": k`, a tap on a result).
    public var start: Int?

    /// Replace and play, in Apple's order, unless told otherwise.
    public init(append: Bool = false, play: Bool = true, sort: TrackSort? = nil, queue: Bool = true, at: InsertPosition? = nil) {
        self.append = append
        self.play = play
        self.sort = sort
        self.queue = queue
        self.at = at
    }

    /// Where the tracks go: nil replaces the queue.
    public var destination: InsertPosition? { at ?? (append ? .end : nil) }
}
