/// The answer to `queue` with `since`: the queue's version and length now, and the items added,
/// moved or changed after the version the client held, each with its index (MPD's `plchanges`).
public struct QueueChangesReport: Codable, Equatable, Sendable {
    /// One changed item where it is now.
    public struct Change: Codable, Equatable, Sendable {
        /// Its queue index now.
        public var index: Int
        /// The item (with its id; failed ones carry `failed` and `error`).
        public var item: QueueItem

        public init(index: Int, item: QueueItem) {
            self.index = index
            self.item = item
        }

        private enum CodingKeys: String, CodingKey { case index, id, track, failed, error }

        public init(from decoder: any Decoder) throws {
            index = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .index)
            item = try QueueItem(from: decoder)
        }

        /// Flat, as a `queue` item with its `index`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(item.id, forKey: .id)
            try c.encode(item.track, forKey: .track)
            try c.encode(item.failure != nil, forKey: .failed)
            try c.encodeIfPresent(item.failure, forKey: .error)
        }
    }

    /// The queue's version now.
    public var version: Int
    /// How many items the queue holds now (a removal shows here).
    public var length: Int
    /// What changed after the version asked about, in queue order.
    public var items: [Change]

    /// What changed in `queue` after `version`.
    public init(_ queue: PlayQueue, since version: Int) {
        self.version = queue.version
        length = queue.count
        items = queue.changes(since: version).map { Change(index: $0.position, item: $0.item) }
    }
}
