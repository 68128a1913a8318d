/// The answer to `queue`: the items and which is current.
public struct QueueReport: Codable, Equatable, Sendable {
    /// The current index, or nil.
    public var index: Int?
    /// The items in play order; failed ones carry `failed: true` and `error`.
    public var items: [QueueItem]

    /// A report of `items` with `index` current.
    public init(index: Int?, items: [QueueItem]) {
        self.index = index
        self.items = items
    }
}
