import PreviewCore

/// What the engine has seen, it remembers: one bounded store of tracks by trackId (`TrackMemoryCore`:
/// about 8 MiB at most, least recently used first, the last 2,000 tracks at least), fed by every
/// catalog answer (`ITunesClient` feeds it: search, lookup, chart), by saved lists as they are read
/// and by tracks added as objects (the restored queue), and read by every add by id
/// (`ITunesClient.tracks(_:)`), so a track previewd has answered costs no catalog call.
/// Thread-safe.
public final class TrackMemory: Sendable {
    private let seen: Locked<TrackMemoryCore>

    /// A memory of at most `maxBytes` (estimated) and `capacity` tracks.
    public init(maxBytes: Int = 8 << 20, capacity: Int = 20_000) {
        seen = Locked(TrackMemoryCore(maxBytes: maxBytes, capacity: capacity))
    }

    /// Keeps `tracks` (the ones with a trackId) as the most recently seen.
    public func remember(_ tracks: some Sequence<Track>) {
        seen.withLock { $0.remember(tracks) }
    }

    /// The track `id`, if seen.
    public func track(_ id: Int) -> Track? {
        seen.withLock { $0.track(id) }
    }

    /// The tracks among `ids` that were seen, by id.
    public func tracks(_ ids: [Int]) -> [Int: Track] {
        seen.withLock { $0.tracks(ids) }
    }

    /// Tracks held.
    public var count: Int { seen.withLock { $0.count } }

    /// Every track held, the most recently used first, and the memory's version (it moves when a
    /// track comes in or goes: `TrackMemoryCore.version`). Their recency is unchanged.
    public var snapshot: (tracks: [Track], version: Int) {
        seen.withLock { ($0.newestFirst, $0.version) }
    }

    /// The version alone (cheap: no copy).
    public var version: Int { seen.withLock { $0.version } }

    /// How full it is, for the `memory` command.
    public var report: StoreReport {
        seen.withLock { StoreReport(name: "track-memory", entries: $0.count, maxEntries: $0.capacity, bytes: $0.bytes, maxBytes: $0.maxBytes) }
    }
}
