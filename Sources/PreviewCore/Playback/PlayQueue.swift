/// The play queue: a value type of items in play order. Which item is current is the transport's
/// business (`Transport.State`), so the queue stays a plain list with navigation helpers.
///
/// As in MPD's queue, every item gets an id when it enters (unique for the life of the queue value
/// and its copies, never reused) and every change, whatever it is, increments `version` here, in
/// the queue itself, so no caller can forget it.
public struct PlayQueue: Equatable, Sendable {
    /// The items, in play order.
    public private(set) var items: [QueueItem] = []
    /// Incremented by every change of the items (added, removed, moved, replaced, failed).
    public private(set) var version = 0
    /// The id the next item gets.
    private var nextID = 1

    /// A queue of `tracks`, in order.
    public init(tracks: [Track] = []) {
        if !tracks.isEmpty { replaceAll(with: tracks) }
    }

    /// Replaces every item with `tracks` (new items, new ids).
    public mutating func replaceAll(with tracks: [Track]) {
        items = newItems(tracks.prefix(Self.maxCount))
        version += 1
    }

    private mutating func newItems(_ tracks: some Collection<Track>) -> [QueueItem] {
        defer { nextID += tracks.count }
        return tracks.enumerated().map { QueueItem(track: $1, id: nextID + $0) }
    }

    /// The position of the item `ref` names; a clear error when there is none.
    public func position(of ref: QueueRef) throws(ControlError) -> Int {
        if let index = index(of: ref) { return index }
        switch ref {
        case .index(let index): throw ControlError(.rejected, "no track at index \(index) (the queue has \(count))")
        case .id(let id): throw ControlError(.rejected, "no track with id \(id) in the queue")
        }
    }

    /// The position of the item `ref` names, or nil when there is none.
    public func index(of ref: QueueRef) -> Int? {
        switch ref {
        case .index(let index): return items.indices.contains(index) ? index : nil
        case .id(let id): return items.firstIndex { $0.id == id }
        }
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
        version += 1
    }

    /// Appends `tracks` at the end.
    public mutating func append(_ tracks: [Track]) throws(ControlError) {
        guard count + tracks.count <= Self.maxCount else {
            throw ControlError(.rejected, "the queue holds at most \(Self.maxCount) tracks; "
                               + "\(tracks.count) more do not fit after \(count) (clear or remove some first)")
        }
        items += newItems(tracks)
        version += 1
    }

    /// Removes the item at `index`; returns where each old index went (nil: removed).
    @discardableResult
    public mutating func remove(at index: Int) -> [Int?] {
        guard items.indices.contains(index) else { return Array(items.indices) }
        items.remove(at: index)
        version += 1
        return (0...items.count).map { $0 == index ? nil : ($0 < index ? $0 : $0 - 1) }
    }

    /// Moves the item at `from` to `to` (both in range); returns where each old index went.
    @discardableResult
    public mutating func move(from: Int, to: Int) -> [Int?] {
        guard items.indices.contains(from), items.indices.contains(to) else { return Array(items.indices) }
        var order = Array(items.indices)
        order.insert(order.remove(at: from), at: to)
        items = order.map { items[$0] }
        version += 1
        var map = [Int?](repeating: nil, count: order.count)
        for (new, old) in order.enumerated() { map[old] = new }
        return map
    }

    /// Removes everything; returns the mapping (every old index removed).
    @discardableResult
    public mutating func removeAll() -> [Int?] {
        defer {
            if !items.isEmpty { version += 1 }
            items = []
        }
        return items.map { _ in nil }
    }
}
