/// The play queue: a value type of items in queue order. Which item is current is the transport's
/// business (`Transport.State`), so the queue stays a plain list.
///
/// As in MPD's queue, every item gets an id when it enters (unique for the life of the queue value
/// and its copies, never reused) and every change, whatever it is, increments `version` here, in
/// the queue itself, so no caller can forget it. Everything else refers to items by id: an edit
/// never has to tell anybody where the other items went.
public struct PlayQueue: Equatable, Sendable {
    /// The items, in queue order.
    public private(set) var items: [QueueItem] = []
    /// Incremented by every change of the items (added, removed, moved, replaced, failed).
    public private(set) var version = 0
    /// The id the next item gets.
    private var nextID = 1
    /// Each item's position, by id (rebuilt by every edit; looked up far more often).
    private var positions: [Int: Int] = [:]
    /// The version at which each item was added, moved to another position, or changed, by id
    /// (MPD's `plchanges`: what a client holding an older version must read again).
    private var changedAt: [Int: Int] = [:]

    /// A queue of `tracks`, in order.
    public init(tracks: [Track] = []) {
        if !tracks.isEmpty { replaceAll(with: tracks) }
    }

    /// The most items a queue holds (fifty pages of the largest search); adding past it is refused.
    public static let maxCount = 10_000

    /// Number of items.
    public var count: Int { items.count }
    /// True when there is nothing queued.
    public var isEmpty: Bool { items.isEmpty }
    /// The ids in queue order.
    public var ids: [Int] { items.map(\.id) }

    // MARK: Finding items

    /// The item with `id`, or nil when it is not in the queue.
    public subscript(id id: Int) -> QueueItem? {
        position(ofID: id).map { items[$0] }
    }

    /// The item at `position`, or nil when out of range.
    public subscript(safe position: Int) -> QueueItem? {
        items.indices.contains(position) ? items[position] : nil
    }

    /// The position of the item with `id`, or nil when it is not in the queue.
    public func position(ofID id: Int) -> Int? { positions[id] }

    /// The id of the item `ref` names; a clear error when there is none.
    public func id(of ref: QueueRef) throws(ControlError) -> Int {
        switch ref {
        case .index(let index):
            guard items.indices.contains(index) else {
                throw ControlError(.rejected, "no track at index \(index) (the queue has \(count))")
            }
            return items[index].id
        case .id(let id):
            guard positions[id] != nil else { throw ControlError(.rejected, "no track with id \(id) in the queue") }
            return id
        }
    }

    /// True when the item with `id` is queued and can be played.
    public func isPlayable(_ id: Int) -> Bool { self[id: id]?.isPlayable == true }

    /// The first playable item at or after `position`.
    public func firstPlayable(from position: Int) -> Int? {
        guard position < items.count else { return nil }
        return items[max(0, position)...].first(where: \.isPlayable)?.id
    }

    // MARK: Changing items

    /// Replaces every item with `tracks` (new items, new ids).
    public mutating func replaceAll(with tracks: [Track]) {
        items = newItems(tracks.prefix(Self.maxCount))
        changed()
    }

    /// Appends `tracks` at the end; returns their ids.
    @discardableResult
    public mutating func append(_ tracks: [Track]) throws(ControlError) -> [Int] {
        try insert(tracks, at: count)
    }

    /// Inserts `tracks` at `position` (0 … `count`), as one change; returns their ids in order.
    @discardableResult
    public mutating func insert(_ tracks: [Track], at position: Int) throws(ControlError) -> [Int] {
        guard (0...count).contains(position) else {
            throw ControlError(.badArgument, "no position \(position) in the queue (it has \(count); \(count) is its end)")
        }
        guard count + tracks.count <= Self.maxCount else {
            throw ControlError(.rejected, "the queue holds at most \(Self.maxCount) tracks; "
                               + "\(tracks.count) more do not fit after \(count) (clear or remove some first)")
        }
        let added = newItems(tracks)
        items.insert(contentsOf: added, at: position)
        changed()
        return added.map(\.id)
    }

    /// Gives the items `ids` (just added by radio) the reason they came for; part of their addition,
    /// so the version does not move again.
    public mutating func setReason(_ reason: RadioReason, ids: [Int]) {
        for id in ids { if let position = positions[id] { items[position].reason = reason } }
    }

    /// The items added, moved or changed after `version`, with their positions, in queue order
    /// (every item when `version` is not one this queue has had yet). A removal shows in `count`
    /// and in the items that moved up.
    public func changes(since version: Int) -> [(position: Int, item: QueueItem)] {
        let all = version > self.version || version < 0
        return items.enumerated().filter { all || (changedAt[$1.id] ?? 0) > version }.map { ($0, $1) }
    }

    /// Removes the item with `id` (nothing when it is not queued).
    public mutating func remove(id: Int) {
        guard let position = positions[id] else { return }
        items.remove(at: position)
        changed()
    }

    /// Moves the item with `id` to `position` (clamped to the queue).
    public mutating func move(id: Int, to position: Int) {
        guard let from = positions[id] else { return }
        let to = min(max(0, position), count - 1)
        guard from != to else { return }
        items.insert(items.remove(at: from), at: to)
        changed()
    }

    /// Swaps the items with ids `a` and `b` (MPD's `swap`), as one change.
    public mutating func swap(_ a: Int, _ b: Int) {
        guard let i = positions[a], let j = positions[b], i != j else { return }
        items.swapAt(i, j)
        changed()
    }

    /// Gives the items with `ids` priority `priority` (MPD's `prio`); the ones it changes are
    /// marked changed, as an edit.
    public mutating func setPriority(_ priority: Int, ids: [Int]) {
        let changing = ids.compactMap { positions[$0] }.filter { items[$0].priority != priority }
        guard !changing.isEmpty else { return }
        version += 1
        for position in changing {
            items[position].priority = priority
            changedAt[items[position].id] = version
        }
    }

    /// Forgets every item's failure (MPD's `clearerror`): they may be tried again.
    public mutating func clearFailures() {
        let failed = items.indices.filter { items[$0].failure != nil }
        guard !failed.isEmpty else { return }
        version += 1
        for position in failed {
            items[position].status = .ok
            changedAt[items[position].id] = version
        }
    }

    /// Forgets the failure of the item with `id` (asked for again, it is tried anew).
    public mutating func clearFailure(_ id: Int) {
        guard let position = positions[id], items[position].failure != nil else { return }
        items[position].status = .ok
        version += 1
        changedAt[id] = version
    }

    /// The preview at `url` was decoded whole: `ms` long. Every item playing it takes the exact
    /// length in place of the estimate, as one change (MPD's clients read it again through
    /// `plchanges`); false when none changed.
    @discardableResult
    public mutating func setPreviewLength(_ ms: Int, url: String) -> Bool {
        let changing = items.indices.filter { items[$0].track.fetchablePreviewURL == url && items[$0].previewMs != ms }
        guard !changing.isEmpty else { return false }
        version += 1
        for position in changing {
            items[position].previewMs = ms
            changedAt[items[position].id] = version
        }
        return true
    }

    /// Puts the items in `range` (the whole queue when nil) in a random order drawn from `seed`, as
    /// one change (MPD's `shuffle`: the queue itself reordered, not a play order).
    public mutating func shuffle(_ range: Range<Int>? = nil, seed: UInt64) {
        let range = (range ?? items.indices).clamped(to: items.indices)
        guard range.count > 1 else { return }
        var rng = SplitMix64(seed: seed)
        items[range].shuffle(using: &rng)
        changed()
    }

    /// Removes everything (an empty queue stays as it is, version included).
    public mutating func removeAll() {
        guard !items.isEmpty else { return }
        items = []
        changed()
    }

    /// Marks the item with `id` failed with `message`; ids not queued are ignored.
    public mutating func markFailed(_ id: Int, message: String) {
        guard let position = positions[id] else { return }
        items[position].status = .failed(message)
        version += 1
        changedAt[id] = version
    }

    private mutating func newItems(_ tracks: some Collection<Track>) -> [QueueItem] {
        defer { nextID += tracks.count }
        return tracks.enumerated().map { QueueItem(track: $1, id: nextID + $0) }
    }

    /// The one place the items' order changes: positions follow, the version moves, and each item
    /// that is new or not where it was is marked changed at the new version.
    private mutating func changed() {
        version += 1
        var moved: [Int: Int] = [:]
        moved.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            moved[item.id] = position
            if positions[item.id] != position { changedAt[item.id] = version }
        }
        if moved.count < changedAt.count { changedAt = changedAt.filter { moved[$0.key] != nil } }
        positions = moved
    }
}
