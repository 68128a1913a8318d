/// One preview's download and the bytes it fills; shared by every decoder of that preview (a seek
/// starts a new decoder on the same bytes), cancelled when the track is no longer wanted.
public final class PreviewDownload: Sendable {
    /// The preview URL.
    public let url: String
    /// The bytes as they arrive.
    public let bytes: PreviewBytes
    private let handle: FetchHandle

    /// Starts downloading `url` with `fetcher`, within `policy`'s memory limit.
    public init(url: String, fetcher: PreviewFetcher, policy: FetchPolicy) {
        self.url = url
        bytes = PreviewBytes(limit: policy.maxPreviewBytes)
        handle = fetcher.fetch(url, into: bytes)
    }

    /// True when the download failed or was cancelled (a new one is needed to play the track).
    public var hasFailed: Bool { bytes.error != nil }

    /// Stops the download; readers waiting on its bytes return `.cancelled`.
    public func cancel() { handle.cancel() }
}
