/// Identifies one load of one track. Every engine event carries the id of the load it belongs to, so
/// an event for a track that is no longer current (a late `ready` after a skip) is recognised and dropped.
public struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw counter value; ids only grow.
    public let rawValue: UInt64

    /// Wraps a counter value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (a: RequestID, b: RequestID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}
