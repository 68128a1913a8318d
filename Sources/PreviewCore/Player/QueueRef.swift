/// A queue item as a client names it: by position (for people: `play 3`), or by the id it got when
/// it entered the queue, which stays the same whatever is moved or removed around it (for programs
/// and front-ends that hold on to an item while others edit the queue, as MPD's `playid` does).
public enum QueueRef: Equatable, Sendable, CustomStringConvertible {
    /// The item at this 0-based position.
    case index(Int)
    /// The item with this id.
    case id(Int)

    public var description: String {
        switch self {
        case .index(let index): return "index \(index)"
        case .id(let id): return "id \(id)"
        }
    }
}
