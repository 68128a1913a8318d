#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Every fetch and buffering threshold in one place (after librespot's AudioFetchParams).
public struct FetchPolicy: Sendable {
    /// The memory budget for every preview held (the current one and the prefetched ones).
    public var memoryBudget = 16 << 20
    /// The most bytes one preview may take: its share of the budget once the heads have theirs. A
    /// larger body fails its track.
    public var maxPreviewBytes: Int { (memoryBudget - heads.reservedBytes) / window }
    /// Loads the prefetch window holds: the current track and its neighbours.
    public var window: Int { 1 + prefetchAhead + prefetchBehind }
    /// Results of the latest answer, and queue items around the current one, whose first seconds
    /// are fetched and decoded ahead of a tap (`--prefetch-heads`, 8 unless told; 0: none).
    public var prefetchHeads = 0
    /// Bytes of a preview a head fetches: about 2 s of a 256 kbps preview after its header, enough
    /// to start and to cover the time the rest takes to arrive.
    public var prefetchHeadBytes = 64 << 10
    /// How many heads the budget holds, and their size (the window's loads first).
    public var heads: HeadPlan {
        HeadPlan(perList: prefetchHeads, budgetBytes: memoryBudget, windowLoads: window, headBytes: prefetchHeadBytes)
    }
    /// An optional disk cache of whole previews.
    public var cache: PreviewCache?
    /// Decoded audio held ahead of the output per track, in milliseconds: 12 × PulseAudio's default
    /// 40 ms, refilled in quarter-ring batches by a decoder that runs about 1,000 × real time.
    public var pcmAheadMs = 500
    /// Decoded audio a prefetched neighbour holds before its decoder parks (freeing its FFmpeg
    /// objects) until the neighbour is wanted: enough to start at once, and more than a decoder
    /// needs to open and catch up (under 1 ms).
    public var prefetchDepthMs = 250
    /// Tracks after the current one (in play order) downloaded and decoded ahead.
    public var prefetchAhead = 1
    /// Tracks before the current one downloaded and decoded ahead, so `prev` is instant too.
    public var prefetchBehind = 1
    /// A download fails when no byte arrives for this long.
    public var stallTimeout: TimeInterval = 15
    /// A download fails when all of it takes longer than this (three times a 30 s preview's length).
    public var downloadDeadline: TimeInterval = 90

    /// The defaults.
    public init() {}
}
