#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One preview's download and the bytes it fills; shared by every decoder of that preview (a seek
/// starts a new decoder on the same bytes), cancelled when the track is no longer wanted. With a
/// disk cache, a cached preview is served from disk and a downloaded one is stored.
public final class PreviewDownload: Sendable {
    /// The preview URL.
    public let url: String
    /// The bytes as they arrive.
    public let bytes: PreviewBytes
    private let handle: FetchHandle?

    /// Starts downloading `url` with `fetcher` within `limit` bytes, unless `cache` holds it.
    public init(url: String, fetcher: PreviewFetcher, limit: Int, cache: PreviewCache? = nil) {
        self.url = url
        bytes = PreviewBytes(limit: limit)
        LiveObjects.downloads.created()
        if let cache, let body = cache.load(url), body.count <= limit {
            bytes.expect(length: body.count)
            bytes.append(body)
            bytes.finish()
            handle = nil
            return
        }
        if let cache {
            bytes.onComplete { [unowned bytes] in cache.store(url, bytes.snapshot()) }
        }
        handle = fetcher.fetch(url, into: bytes)
    }

    deinit { LiveObjects.downloads.destroyed() }

    /// Stops the download; readers waiting on its bytes return `.cancelled`.
    public func cancel() { handle?.cancel() }
}
