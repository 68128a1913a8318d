/// The order the queue is played in: the queue's own order, or a shuffled permutation of its item
/// ids that `prev` walks back through. A value type of ids, so queue edits never remap it; shuffling
/// is seeded so tests can predict it.
public struct PlayOrder: Equatable, Sendable {
    /// The shuffled ids; nil: the queue's own order.
    public private(set) var shuffle: [Int]?

    /// The queue's own order.
    public init() {}

    /// A shuffle in the order of `ids` (a restored one).
    public init(shuffle ids: [Int]) { shuffle = ids }

    /// True when the order is a shuffle.
    public var isShuffled: Bool { shuffle != nil }

    /// A shuffled order of `queue` that starts with `first` (when given), from `seed`.
    public static func shuffled(_ queue: PlayQueue, first: Int?, seed: UInt64) -> PlayOrder {
        var rest = queue.ids.filter { $0 != first }
        var rng = SplitMix64(seed: seed)
        rest.shuffle(using: &rng)
        var order = PlayOrder()
        order.shuffle = (first.map { [$0] } ?? []) + rest
        return order
    }

    /// Follows an edit of `queue`: a shuffle forgets the items that left and takes the new ones at
    /// its end, shuffled among themselves; the rest keeps its relative order. `upNext` (items
    /// inserted to play next) go right after `current` instead, in the order given.
    public mutating func sync(with queue: PlayQueue, seed: UInt64, upNext: [Int] = [], after current: Int? = nil) {
        guard var ids = shuffle else { return }
        let next = Set(upNext)
        ids.removeAll { queue.position(ofID: $0) == nil || next.contains($0) }
        let known = Set(ids).union(next)
        var added = queue.ids.filter { !known.contains($0) }
        var rng = SplitMix64(seed: seed)
        added.shuffle(using: &rng)
        let at = current.flatMap { ids.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        ids.insert(contentsOf: upNext.filter { queue.position(ofID: $0) != nil }, at: at)
        shuffle = ids + added
    }

    /// Orders what a shuffle plays after `current` by the items' priority, highest first, keeping
    /// the shuffled order among equals (MPD: priority orders what random plays next).
    public mutating func prioritize(in queue: PlayQueue, after current: Int?) {
        guard let ids = shuffle else { return }
        let start = current.flatMap { ids.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let rest = ids[start...].enumerated().sorted { a, b in
            let (p, q) = (queue[id: a.element]?.priority ?? 0, queue[id: b.element]?.priority ?? 0)
            return p != q ? p > q : a.offset < b.offset
        }
        shuffle = Array(ids[..<start]) + rest.map(\.element)
    }

    /// The item ids in play order.
    public func ids(in queue: PlayQueue) -> [Int] { shuffle ?? queue.ids }

    /// The next playable item after `id` in play order, wrapping to the start when `wrap`.
    public func after(_ id: Int?, in queue: PlayQueue, wrap: Bool) -> Int? {
        let ids = ids(in: queue)
        let position = id.flatMap { ids.firstIndex(of: $0) } ?? -1
        if let hit = ids[(position + 1)...].first(where: queue.isPlayable) { return hit }
        guard wrap else { return nil }
        return ids[...max(-1, position)].first(where: queue.isPlayable)
    }

    /// The nearest playable item before `id` in play order.
    public func before(_ id: Int, in queue: PlayQueue) -> Int? {
        let ids = ids(in: queue)
        guard let position = ids.firstIndex(of: id), position > 0 else { return nil }
        return ids[..<position].last(where: queue.isPlayable)
    }

    /// The first playable item in play order at or after `start`'s place (else from the top).
    public func first(from start: Int?, in queue: PlayQueue) -> Int? {
        let ids = ids(in: queue)
        let position = start.flatMap { ids.firstIndex(of: $0) } ?? 0
        return ids[position...].first(where: queue.isPlayable) ?? ids.first(where: queue.isPlayable)
    }
}
