/// The tracks previewd has seen in catalog answers, saved lists and the restored queue, by
/// trackId: the pure part of the engine's `TrackMemory`. Least recently used go first, bounded by
/// an estimate of the bytes held and by a count. A track larger than `maxTrackBytes` is not kept
/// (a film's long description), so `maxBytes / maxTrackBytes` tracks always fit: the last 2,000
/// at least with the defaults. Not thread-safe (a value).
public struct TrackMemoryCore: Sendable {
    /// Bytes held at most (an estimate: each track's inline size and its heap strings).
    public let maxBytes: Int
    /// Tracks held at most.
    public let capacity: Int
    /// A track estimated larger than this is not kept.
    public static let maxTrackBytes = 4096

    /// One entry of the recency list (a doubly linked list in an array: no allocation per use).
    private struct Entry: Sendable {
        var track: Track
        var bytes: Int
        var newer: Int?
        var older: Int?
    }
    private var entries: [Entry] = []
    private var free: [Int] = []
    private var slots: [Int: Int] = [:]   // trackId → index in `entries`
    private var newest: Int?
    private var oldest: Int?
    /// Bytes held now (estimated).
    public private(set) var bytes = 0
    /// Moves when a track comes in that was not held, or one is let go: the set of tracks changed.
    public private(set) var version = 0

    /// A memory of at most `maxBytes` (estimated) and `capacity` tracks.
    public init(maxBytes: Int = 8 << 20, capacity: Int = 20_000) {
        self.maxBytes = max(Self.maxTrackBytes, maxBytes)
        self.capacity = max(1, capacity)
    }

    /// Tracks held.
    public var count: Int { slots.count }

    /// Keeps `tracks` (those with a trackId that are tracks, not collections or artists) as the
    /// most recently seen. A newer answer replaces an older one, except that an entry with a
    /// preview is not replaced by one without (a chart row that lacks the link).
    public mutating func remember(_ tracks: some Sequence<Track>) {
        for track in tracks {
            guard let id = track.trackId, track.isTrackLike else { continue }
            let size = Self.estimatedBytes(track)
            guard size <= Self.maxTrackBytes else { continue }
            if let slot = slots[id] {
                if track.previewUrl == nil, entries[slot].track.previewUrl != nil {
                    touch(slot)
                    continue
                }
                bytes += size - entries[slot].bytes
                entries[slot].track = track
                entries[slot].bytes = size
                touch(slot)
            } else {
                let entry = Entry(track: track, bytes: size)
                let slot: Int
                if let reused = free.popLast() { entries[reused] = entry; slot = reused } else { entries.append(entry); slot = entries.count - 1 }
                slots[id] = slot
                bytes += size
                link(slot)
                version &+= 1
            }
            while bytes > maxBytes || slots.count > capacity, let old = oldest { drop(old) }
        }
    }

    /// The track `id`, if seen; it becomes the most recently used.
    public mutating func track(_ id: Int) -> Track? {
        guard let slot = slots[id] else { return nil }
        touch(slot)
        return entries[slot].track
    }

    /// The tracks among `ids` that were seen, by id (each becomes the most recently used).
    public mutating func tracks(_ ids: some Sequence<Int>) -> [Int: Track] {
        var found: [Int: Track] = [:]
        for id in ids { if let track = track(id) { found[id] = track } }
        return found
    }

    /// Every track held, the most recently used first (their recency unchanged).
    public var newestFirst: [Track] {
        var out: [Track] = []
        out.reserveCapacity(slots.count)
        var at = newest
        while let slot = at {
            out.append(entries[slot].track)
            at = entries[slot].older
        }
        return out
    }

    /// Whether `id` was seen (its recency unchanged).
    public func contains(_ id: Int) -> Bool { slots[id] != nil }

    /// An estimate of what `track` holds: its inline size and every string too long to be kept inline.
    public static func estimatedBytes(_ track: Track) -> Int {
        let strings = [track.wrapperType, track.kind, track.artistName, track.collectionArtistName, track.collectionName,
                       track.trackName, track.collectionCensoredName, track.trackCensoredName, track.artistViewUrl,
                       track.artistLinkUrl, track.artistType, track.collectionViewUrl, track.trackViewUrl, track.previewUrl,
                       track.artworkUrl30, track.artworkUrl60, track.artworkUrl100, track.releaseDate,
                       track.collectionExplicitness, track.trackExplicitness, track.country, track.currency,
                       track.primaryGenreName, track.contentAdvisoryRating, track.longDescription, track.shortDescription]
        let heap = strings.reduce(0) { total, text in
            guard let n = text?.utf8.count, n > 15 else { return total }   // up to 15 bytes live inside the String
            return total + 32 + n
        }
        return MemoryLayout<Entry>.stride + 64 + heap   // 64: its place in the id table
    }

    // MARK: The recency list

    private mutating func link(_ slot: Int) {
        entries[slot].older = newest
        entries[slot].newer = nil
        if let newest { entries[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (entries[slot].newer, entries[slot].older)
        if let newer { entries[newer].older = older } else { newest = older }
        if let older { entries[older].newer = newer } else { oldest = newer }
    }

    private mutating func touch(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        link(slot)
    }

    private mutating func drop(_ slot: Int) {
        version &+= 1
        unlink(slot)
        if let id = entries[slot].track.trackId { slots[id] = nil }
        bytes -= entries[slot].bytes
        entries[slot].track = Track()   // its strings go now
        free.append(slot)
    }
}
