/// Where tracks added to the queue go.
public enum InsertPosition: Equatable, Hashable, Sendable {
    /// After the last item.
    case end
    /// Right after the current item (at the front when there is none), so they play next; with
    /// shuffle on, they come next in the shuffled order too.
    case next
    /// At this queue index (0 … the queue's length).
    case index(Int)
}
