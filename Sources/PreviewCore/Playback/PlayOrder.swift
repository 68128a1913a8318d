/// The order the queue is played in: the queue's own order, or a shuffled permutation of it that
/// `prev` walks back through. A value type; shuffling is seeded so tests can predict it.
public struct PlayOrder: Equatable, Sendable {
    /// Queue indices in play order.
    public private(set) var indices: [Int]
    /// True when `indices` is a shuffle.
    public private(set) var isShuffled: Bool

    /// The queue's own order for `count` items.
    public init(count: Int = 0) {
        indices = Array(0..<count)
        isShuffled = false
    }

    /// A shuffled order of `count` items that starts with `first` (when given), from `seed`.
    public static func shuffled(count: Int, first: Int?, seed: UInt64) -> PlayOrder {
        var order = PlayOrder(count: count)
        order.isShuffled = true
        var rest = order.indices.filter { $0 != first }
        var rng = SplitMix64(seed: seed)
        rest.shuffle(using: &rng)
        order.indices = (first.map { [$0] } ?? []) + rest
        return order
    }

    /// Extends the order to cover `count` items: new items go at the end, shuffled among themselves
    /// when the order is shuffled.
    public mutating func extend(to count: Int, seed: UInt64) {
        guard count > indices.count else { return }
        var added = Array(indices.count..<count)
        if isShuffled {
            var rng = SplitMix64(seed: seed)
            added.shuffle(using: &rng)
        }
        indices += added
    }

    /// The order after the queue was edited: `map[old]` is each old index's new place (nil: removed);
    /// a shuffle keeps its relative order, and indices the map does not cover are appended.
    public func remapped(_ map: [Int?], count: Int) -> PlayOrder {
        guard isShuffled else { return PlayOrder(count: count) }
        var order = self
        order.indices = indices.compactMap { map.indices.contains($0) ? map[$0] : nil }.filter { $0 < count }
        let missing = Set(0..<count).subtracting(order.indices)
        order.indices += missing.sorted()
        return order
    }

    /// The next playable index after `index` in play order, wrapping to the start when `wrap`.
    public func after(_ index: Int?, in queue: PlayQueue, wrap: Bool) -> Int? {
        let position = index.flatMap { indices.firstIndex(of: $0) } ?? -1
        if let hit = indices[(position + 1)...].first(where: { queue[safe: $0]?.isPlayable == true }) { return hit }
        guard wrap else { return nil }
        return indices[...max(-1, position)].first { queue[safe: $0]?.isPlayable == true }
    }

    /// The nearest playable index before `index` in play order.
    public func before(_ index: Int, in queue: PlayQueue) -> Int? {
        guard let position = indices.firstIndex(of: index), position > 0 else { return nil }
        return indices[..<position].last { queue[safe: $0]?.isPlayable == true }
    }

    /// The first playable index in play order at or after queue index `start`'s place.
    public func first(from start: Int, in queue: PlayQueue) -> Int? {
        let position = indices.firstIndex(of: start) ?? 0
        return indices[position...].first { queue[safe: $0]?.isPlayable == true }
            ?? indices.first { queue[safe: $0]?.isPlayable == true }
    }
}
