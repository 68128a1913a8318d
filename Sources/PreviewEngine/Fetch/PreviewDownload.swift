#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One preview's download and the bytes it fills; shared by every decoder of that preview (a seek
/// starts a new decoder on the same bytes), cancelled when the track is no longer wanted. With a
/// disk cache, a cached preview is served from disk (read on the cache's thread, never on the
/// engine loop) and a downloaded one is stored.
public final class PreviewDownload: Sendable {
    /// The preview URL.
    public let url: String
    /// The bytes as they arrive.
    public let bytes: PreviewBytes
    /// The fetch under way (none while the disk cache is read, or when it held the preview),
    /// whether `cancel` came first, and the head's size while only a head is wanted.
    private let fetch: Locked<(handle: FetchHandle?, cancelled: Bool, headBytes: Int?)>

    /// Starts downloading `url` with `fetcher` within `limit` bytes, unless `cache` holds it.
    /// `headBytes`: only a head's first bytes for now (a range request), until `widen()`.
    public init(url: String, fetcher: PreviewFetcher, limit: Int, cache: PreviewCache? = nil, headBytes: Int? = nil) {
        self.url = url
        fetch = Locked((nil, false, headBytes))
        bytes = headBytes.map { PreviewBytes(limit: limit, initialCapacity: $0) } ?? PreviewBytes(limit: limit)
        LiveObjects.downloads.created()
        guard let cache else {
            start(fetcher)
            return
        }
        // A head reads no cached file, which would hold the whole preview where a head holds 64 KiB;
        // what it fetches is still stored once it has become the whole preview.
        guard headBytes == nil else {
            bytes.onComplete { [unowned bytes] in cache.store(url, bytes.snapshot()) }
            start(fetcher)
            return
        }
        cache.read(url) { [self, bytes] body in
            if let body, body.count <= limit {
                bytes.expect(length: body.count)
                bytes.append(body)
                bytes.finish()
                return
            }
            bytes.onComplete { [unowned bytes] in cache.store(url, bytes.snapshot()) }
            start(fetcher)
        }
    }

    deinit { LiveObjects.downloads.destroyed() }

    private func start(_ fetcher: PreviewFetcher) {
        let (cancelledFirst, headBytes) = fetch.withLock { ($0.cancelled, $0.headBytes) }
        guard !cancelledFirst else { return }
        let handle = fetcher.fetch(url, into: bytes, headBytes: headBytes)
        let (cancelled, widened) = fetch.withLock { state -> (Bool, Bool) in
            state.handle = handle
            return (state.cancelled, headBytes != nil && state.headBytes == nil)
        }
        // `cancel` or `widen` ran while the fetch was being started.
        if cancelled { handle.cancel() } else if widened { handle.widen() }
    }

    /// A head's download goes on to the whole preview, from the first byte it lacks.
    public func widen() {
        let handle = fetch.withLock { state -> FetchHandle? in
            state.headBytes = nil
            return state.handle
        }
        handle?.widen()   // none yet: the fetch, once started, asks for the whole preview
    }

    /// Stops the download; readers waiting on its bytes return `.cancelled`.
    public func cancel() {
        let handle = fetch.withLock { state -> FetchHandle? in
            state.cancelled = true
            return state.handle
        }
        if let handle { handle.cancel() } else { bytes.cancel() }
    }
}
