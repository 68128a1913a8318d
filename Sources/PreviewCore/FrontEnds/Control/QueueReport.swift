/// The answer to `queue`: the items and which is current.
public struct QueueReport: Codable, Equatable, Sendable {
    /// The current index, or nil.
    public var index: Int?
    /// The items in play order, each with its `id`; failed ones carry `failed: true` and `error`.
    public var items: [QueueItem]
    /// The queue's version (as in `status`).
    public var version: Int
    /// With shuffle on, the item ids in play order; nil: the queue's own order.
    public var order: [Int]?

    /// A report of `items` at `version` with `index` current.
    public init(index: Int?, items: [QueueItem], version: Int = 0) {
        self.index = index
        self.items = items
        self.version = version
    }

    /// A report of `queue` with `index` current, played in `order`.
    public init(index: Int?, queue: PlayQueue, order: PlayOrder = PlayOrder()) {
        self.init(index: index, items: queue.items, version: queue.version)
        self.order = order.shuffle
    }

    private enum CodingKeys: String, CodingKey { case index, items, version, order }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        index = try c.decodeIfPresent(Int.self, forKey: .index)
        items = try c.decode([QueueItem].self, forKey: .items)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 0
        order = try c.decodeIfPresent([Int].self, forKey: .order)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(items, forKey: .items)
        try c.encode(version, forKey: .version)
        try c.encode(order, forKey: .order)
    }
}
