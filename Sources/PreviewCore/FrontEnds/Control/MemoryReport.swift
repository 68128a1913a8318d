/// The answer to `memory`: what previewd holds now, so anyone (a listener, the soak, a test) can see
/// that it stays bounded however long it runs.
public struct MemoryReport: Codable, Equatable, Sendable {
    /// The engine's heavy objects alive now.
    public var live: LiveObjectCounts
    /// Loads the prefetch window holds at most (the current track, `--prefetch-ahead` after it and
    /// `--prefetch-behind` before it): at rest, no more downloads, PCM buffers or slots than this live.
    public var window: Int
    /// Heads held at most besides (`--prefetch-heads`, within the budget): each a download, a slot
    /// and a PCM buffer, its decoder parked once its first frames are ready. Nil from an older previewd.
    public var heads: Int?
    /// Every store that grows with use, with its size and its bound.
    public var stores: [StoreReport]
    /// previewd's anonymous resident memory in bytes (`/proc/self/smaps_rollup`), when readable.
    public var anonymousBytes: Int?
    /// Calls made to the catalog API since the start (answers from the cache and the track memory
    /// are not calls).
    public var catalogCalls: Int?

    /// A report of `live` objects, the `window`, the `stores` and the anonymous memory.
    public init(live: LiveObjectCounts, window: Int, stores: [StoreReport], anonymousBytes: Int?) {
        self.live = live
        self.window = window
        self.stores = stores
        self.anonymousBytes = anonymousBytes
    }
}

/// How many of each heavy object are alive.
public struct LiveObjectCounts: Codable, Equatable, Sendable {
    /// Preview downloads (each holds its bytes and, while it runs, a curl handle).
    public var downloads: Int
    /// PCM rings of decoded audio, one per slot.
    public var pcmBuffers: Int
    /// FFmpeg pipelines (demuxer, decoder, resampler) decoding or measuring now.
    public var decoders: Int
    /// Decodings of a track (the current one, prefetched neighbours).
    public var slots: Int
    /// HTTP requests under way.
    public var httpExchanges: Int

    /// Counts of each kind.
    public init(downloads: Int, pcmBuffers: Int, decoders: Int, slots: Int, httpExchanges: Int) {
        self.downloads = downloads
        self.pcmBuffers = pcmBuffers
        self.decoders = decoders
        self.slots = slots
        self.httpExchanges = httpExchanges
    }
}

/// One bounded store: how full it is against its limits.
public struct StoreReport: Codable, Equatable, Sendable {
    /// Its name (`queue`, `catalog-cache`, `loudness`, `artwork`, …).
    public var name: String
    /// Entries held, and the most it keeps.
    public var entries: Int
    public var maxEntries: Int
    /// Bytes held, and the most it keeps, for a store bounded in bytes too.
    public var bytes: Int?
    public var maxBytes: Int?

    /// A store holding `entries` of at most `maxEntries` (and `bytes` of at most `maxBytes`).
    public init(name: String, entries: Int, maxEntries: Int, bytes: Int? = nil, maxBytes: Int? = nil) {
        self.name = name
        self.entries = entries
        self.maxEntries = maxEntries
        self.bytes = bytes
        self.maxBytes = maxBytes
    }

    /// Within both of its bounds.
    public var isWithinBounds: Bool { entries <= maxEntries && (bytes ?? 0) <= (maxBytes ?? .max) }
}
