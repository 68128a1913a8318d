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
    /// The fetch under way (none while the disk cache is read, or when it held the preview), and
    /// whether `cancel` came first.
    private let fetch = Locked<(handle: FetchHandle?, cancelled: Bool)>((nil, false))

    /// Starts downloading `url` with `fetcher` within `limit` bytes, unless `cache` holds it.
    public init(url: String, fetcher: PreviewFetcher, limit: Int, cache: PreviewCache? = nil) {
        self.url = url
        bytes = PreviewBytes(limit: limit)
        LiveObjects.downloads.created()
        guard let cache else {
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
        guard !fetch.withLock({ $0.cancelled }) else { return }
        let handle = fetcher.fetch(url, into: bytes)
        let cancelled = fetch.withLock { state -> Bool in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { handle.cancel() }   // `cancel` ran while the fetch was being started
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
