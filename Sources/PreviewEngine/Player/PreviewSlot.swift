import Foundation
import PreviewCore

/// One decoding of a track for one load request: a decoder reading the track's shared download from
/// `startMs`, and the PCM it produces for the output. Cancelling a slot stops its decoder only.
public final class PreviewSlot: Sendable {
    /// The load this slot serves.
    public let request: RequestID
    /// The queue index it was loaded for.
    public let index: Int
    /// Where in the track the decoded audio starts.
    public let startMs: Int
    /// The download it reads.
    public let download: PreviewDownload
    /// The decoded audio, for the output to play.
    public let pcm: PCMBuffer
    private let decoder: PreviewDecoder

    /// Starts decoding `download` from `startMs`; decoder events come to `onEvent` from the decoder thread.
    public init(request: RequestID, index: Int, startMs: Int, download: PreviewDownload, policy: FetchPolicy,
                format: PCMFormat, onEvent: @escaping @Sendable (RequestID, PreviewDecoder.Event) -> Void) {
        self.request = request
        self.index = index
        self.startMs = startMs
        self.download = download
        pcm = PCMBuffer(format: format, capacityFrames: format.frames(milliseconds: policy.pcmAheadMs))
        decoder = PreviewDecoder(source: download.bytes, output: pcm, startMs: startMs) { onEvent(request, $0) }
        decoder.start()
    }

    /// Stops the decoder; a blocked read or wait returns at once. The download goes on.
    public func cancel() { decoder.cancel() }
}
