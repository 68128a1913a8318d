#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every fetch and buffering threshold in one place (after librespot's AudioFetchParams).
public struct FetchPolicy: Sendable {
    /// The memory budget for every preview held (the current one and the prefetched ones).
    public var memoryBudget = 16 << 20
    /// The most bytes one preview may take: its share of the budget. A larger body fails its track.
    public var maxPreviewBytes: Int { memoryBudget / (1 + prefetchAhead + prefetchBehind) }
    /// An optional disk cache of whole previews.
    public var cache: PreviewCache?
    /// Decoded audio held ahead of the output per track, in milliseconds.
    public var pcmAheadMs = 1_000
    /// Tracks after the current one (in play order) downloaded and decoded ahead.
    public var prefetchAhead = 1
    /// Tracks before the current one downloaded and decoded ahead, so `prev` is instant too.
    public var prefetchBehind = 1
    /// A download fails when no byte arrives for this long.
    public var stallTimeout: TimeInterval = 15

    /// The defaults.
    public init() {}
}
