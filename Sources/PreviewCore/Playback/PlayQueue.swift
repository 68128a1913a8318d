/// The play queue: a value type of items in play order. Which item is current is the transport's
/// business (`Transport.State`), so the queue stays a plain list with navigation helpers.
public struct PlayQueue: Equatable, Sendable {
    /// The items, in play order.
    public private(set) var items: [QueueItem]

    /// A queue of `tracks`, in order.
    public init(tracks: [Track] = []) {
        items = tracks.map { QueueItem(track: $0) }
    }

    /// The most items a queue holds (fifty pages of the largest search); adding past it is refused.
    public static let maxCount = 10_000

    /// Number of items.
    public var count: Int { items.count }
    /// True when there is nothing queued.
    public var isEmpty: Bool { items.isEmpty }

    /// The item at `index`, or nil when out of range.
    public subscript(safe index: Int) -> QueueItem? {
        items.indices.contains(index) ? items[index] : nil
    }

    /// The first playable index at or after `index`.
    public func firstPlayable(from index: Int) -> Int? {
        guard index < items.count else { return nil }
        return items[max(0, index)...].firstIndex(where: \.isPlayable)
    }

    /// Marks the item at `index` failed with `message`; out-of-range indices are ignored.
    public mutating func markFailed(_ index: Int, message: String) {
        guard items.indices.contains(index) else { return }
        items[index].status = .failed(message)
    }

    /// Appends `tracks` at the end.
    public mutating func append(_ tracks: [Track]) throws(ControlError) {
        guard count + tracks.count <= Self.maxCount else {
            throw ControlError(.rejected, "the queue holds at most \(Self.maxCount) tracks; "
                               + "\(tracks.count) more do not fit after \(count) (clear or remove some first)")
        }
        items += tracks.map { QueueItem(track: $0) }
    }

    /// Removes the item at `index`; returns where each old index went (nil: removed).
    @discardableResult
    public mutating func remove(at index: Int) -> [Int?] {
        guard items.indices.contains(index) else { return Array(items.indices) }
        items.remove(at: index)
        return (0...items.count).map { $0 == index ? nil : ($0 < index ? $0 : $0 - 1) }
    }

    /// Moves the item at `from` to `to` (both in range); returns where each old index went.
    @discardableResult
    public mutating func move(from: Int, to: Int) -> [Int?] {
        guard items.indices.contains(from), items.indices.contains(to) else { return Array(items.indices) }
        var order = Array(items.indices)
        order.insert(order.remove(at: from), at: to)
        items = order.map { items[$0] }
        var map = [Int?](repeating: nil, count: order.count)
        for (new, old) in order.enumerated() { map[old] = new }
        return map
    }

    /// Removes everything; returns the mapping (every old index removed).
    @discardableResult
    public mutating func removeAll() -> [Int?] {
        defer { items = [] }
        return items.map { _ in nil }
    }
}
