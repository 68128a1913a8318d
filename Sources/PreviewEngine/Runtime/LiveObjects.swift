import PreviewCore
import Synchronization

/// How many of the engine's heavy objects are alive now: each type's init adds one and its deinit
/// takes it away. A load that outlives its queue item (its bytes, PCM ring, decoder, slot, HTTP
/// exchange) shows here while previewd runs, where heaptrack's exit report cannot see it: the
/// `memory` command, the soak and the retention tests read these counts.
public enum LiveObjects {
    /// One kind's count.
    public final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func created() { value.add(1, ordering: .relaxed) }
        func destroyed() { value.subtract(1, ordering: .relaxed) }
        /// Alive now.
        public var count: Int { value.load(ordering: .relaxed) }
    }

    /// `PreviewDownload`s: a preview's download and the bytes it holds.
    public static let downloads = Counter()
    /// `PCMRing`s: a slot's ring of decoded audio.
    public static let pcmBuffers = Counter()
    /// `DecodePipeline`s: FFmpeg's demuxer, decoder and resampler of one decoding (or measurement).
    public static let decoders = Counter()
    /// `PreviewSlot`s: one decoding of one track.
    public static let slots = Counter()
    /// `HTTPExchange`s: a request with its curl handle, from start to end.
    public static let httpExchanges = Counter()

    /// The counts, as the `memory` command reports them.
    public static var report: LiveObjectCounts {
        LiveObjectCounts(downloads: downloads.count, pcmBuffers: pcmBuffers.count, decoders: decoders.count,
                         slots: slots.count, httpExchanges: httpExchanges.count)
    }
}
