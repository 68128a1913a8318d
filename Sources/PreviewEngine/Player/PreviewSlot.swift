import Foundation
import PreviewCore

/// One track being played or made ready: its download, its bytes, its decoder and its PCM.
/// The player owns slots; cancelling one stops the download and the decoder at once.
public final class PreviewSlot: Sendable {
    /// The load this slot serves.
    public let request: RequestID
    /// The queue index it was loaded for.
    public let index: Int
    /// The decoded audio, for the output to play.
    public let pcm: PCMBuffer
    private let fetch: FetchHandle
    private let decoder: PreviewDecoder

    /// Starts downloading and decoding `url`; decoder events come to `onEvent` from the decoder thread.
    public init(request: RequestID, index: Int, url: String, fetcher: PreviewFetcher, policy: FetchPolicy,
                format: PCMFormat, onEvent: @escaping @Sendable (RequestID, PreviewDecoder.Event) -> Void) {
        self.request = request
        self.index = index
        pcm = PCMBuffer(format: format, capacityFrames: format.frames(milliseconds: policy.pcmAheadMs))
        let bytes = PreviewBytes(limit: policy.maxPreviewBytes)
        fetch = fetcher.fetch(url, into: bytes)
        decoder = PreviewDecoder(source: bytes, output: pcm) { onEvent(request, $0) }
        decoder.start()
    }

    /// Bytes downloaded so far.
    public var receivedBytes: Int { fetch.bytes.receivedCount }

    /// Stops the download and the decoder; blocked reads and waits return at once.
    public func cancel() {
        fetch.cancel()
        decoder.cancel()
    }
}
