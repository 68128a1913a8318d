/// The answer to `search`, `lookup`, `top` and `more`: the results with Apple's field names, which
/// of them were queued and where, and why the others were not.
public struct CatalogReport: Codable, Equatable, Sendable {
    /// A result that was shown but not queued.
    public struct NotQueued: Codable, Equatable, Sendable {
        /// Its position in `results`.
        public var result: Int
        /// Why (no preview, a refused URL scheme, not a track).
        public var reason: String

        public init(result: Int, reason: String) {
            self.result = result
            self.reason = reason
        }
    }

    /// The results in the order asked for (Apple's, or sorted).
    public var results: [Track]
    /// Queue index of the first queued result; the queued ones follow it in order. Nil when none was queued.
    public var firstQueueIndex: Int?
    /// The queue ids the queued results got, in order (empty when none was queued).
    public var ids: [Int] = []
    /// False when the command was asked not to queue (`"queue": false`): `notQueued` then says
    /// which results could not be queued.
    public var queued = true
    /// The results that were not queued.
    public var notQueued: [NotQueued]
    /// Malformed entries of the answer that were skipped.
    public var skipped: Int
    /// The API URLs called (or answered from the cache).
    public var requests: [String]
    /// For an album query: the album whose songs these are.
    public var album: String?
    /// For a search: a full page came back, so `more` may find more.
    public var mayHaveMore: Bool
    /// The player's state after the queue changed.
    public var status: StatusReport

    public init(results: [Track], firstQueueIndex: Int?, notQueued: [NotQueued], skipped: Int, requests: [String],
                album: String?, mayHaveMore: Bool, status: StatusReport) {
        self.results = results
        self.firstQueueIndex = firstQueueIndex
        self.notQueued = notQueued
        self.skipped = skipped
        self.requests = requests
        self.album = album
        self.mayHaveMore = mayHaveMore
        self.status = status
    }

    /// The queue index of each result (nil for the ones not queued).
    public var queueIndices: [Int?] {
        guard firstQueueIndex != nil else { return results.map { _ in nil } }
        let skipped = Set(notQueued.map(\.result))
        var next = firstQueueIndex ?? 0
        return results.indices.map { i in
            guard !skipped.contains(i) else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// The answer to `info`: a queue item's details and its artist's block (from a lookup of `artistId`).
public struct InfoReport: Codable, Equatable, Sendable {
    /// The queue index.
    public var index: Int
    /// The item's catalog entry.
    public var track: Track
    /// Whether it failed, and why.
    public var error: String?
    /// The artist's own entry (`wrapperType` "artist": name, genre, artistLinkUrl), when found.
    public var artist: Track?
    /// Why the artist's entry is missing, when it is.
    public var artistError: String?
    /// The preview's measured loudness (once measured) and, for the current track, its gain.
    public var loudness: LoudnessReport?

    public init(index: Int, track: Track, error: String?, artist: Track?, artistError: String?, loudness: LoudnessReport? = nil) {
        self.index = index
        self.track = track
        self.error = error
        self.artist = artist
        self.artistError = artistError
        self.loudness = loudness
    }
}

/// The answer to `share`: a ready-to-post line and its parts.
public struct ShareReport: Codable, Equatable, Sendable {
    /// "Listening to TITLE by ARTIST — trackViewUrl".
    public var line: String
    public var title: String
    public var artist: String?
    public var url: String?

    /// The share line for `track`.
    public init(track: Track) {
        title = track.trackName ?? track.collectionName ?? "Unknown title"
        artist = track.artistName
        url = track.trackViewUrl ?? track.collectionViewUrl
        line = "Listening to \(title)" + (artist.map { " by \($0)" } ?? "") + (url.map { " — \($0)" } ?? "")
    }
}
