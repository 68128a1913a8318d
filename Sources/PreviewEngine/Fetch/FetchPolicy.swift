import Foundation

/// Every fetch and buffering threshold in one place (after librespot's AudioFetchParams).
public struct FetchPolicy: Sendable {
    /// The most bytes one preview may take in memory; a larger body fails its track.
    public var maxPreviewBytes = 16 << 20
    /// Decoded audio held ahead of the output per track, in milliseconds.
    public var pcmAheadMs = 2_000
    /// A download fails when no byte arrives for this long.
    public var stallTimeout: TimeInterval = 15

    /// The defaults.
    public init() {}
}
