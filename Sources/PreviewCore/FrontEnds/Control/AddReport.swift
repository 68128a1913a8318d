/// The answer to `add`: the ids the new items got, in the order inserted, and the queue's version
/// after that one change.
public struct AddReport: Codable, Equatable, Sendable {
    /// The new items' queue ids, in queue order.
    public var ids: [Int]
    /// The queue's version after the insert.
    public var queueVersion: Int
    /// The tracks not queued and why; `result` is the position in what was asked.
    public var notQueued: [CatalogReport.NotQueued]

    public init(ids: [Int], queueVersion: Int, notQueued: [CatalogReport.NotQueued]) {
        self.ids = ids
        self.queueVersion = queueVersion
        self.notQueued = notQueued
    }
}
