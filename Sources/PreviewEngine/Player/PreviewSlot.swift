#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// One decoding of a track: a decoder reading the track's shared download from `startMs`, and the
/// PCM it produces for the output. The current track has one; so do the prefetched neighbours, which
/// decode only their first `depthMs` and then park their decoder, freeing its FFmpeg objects (about
/// 0.6 MB), so `next` and `prev` only swap a slot; `decodeWhole()` (when the slot becomes current,
/// including when the output has moved to it gaplessly) starts a decoder that continues at the
/// exact frame the parked decoding ended.
/// Cancelling a slot stops its decoder only; the download is shared and outlives it.
public final class PreviewSlot: Sendable {
    /// Unique per slot (the core's slot id); decoder events carry it.
    public let id: UInt64
    /// Where in the track the decoded audio starts.
    public let startMs: Int
    /// The download it reads.
    public let download: PreviewDownload
    /// The decoded audio, for the output to play.
    public let pcm: PCMRing
    private let label: String
    private let onEvent: @Sendable (PreviewDecoder.Event) -> Void

    /// Which decoder runs and whether it stops after its first `depthFrames`; one lock, so a decoder deciding to
    /// park and `decodeWhole()` deciding to continue cannot miss each other.
    private struct Decoding {
        var decoder: PreviewDecoder?
        /// Frames to decode before parking; nil once the whole track is wanted.
        var depthFrames: Int?
        /// Frames written when the decoder parked; nil while one runs.
        var parkedAt: Int?
    }
    private let decoding: Locked<Decoding>

    /// Starts decoding `download` from `startMs`: only its first `depthMs` when given, else all of
    /// it. `label` names the track in FFmpeg's log lines; events come to `onEvent` from decoder threads.
    /// `crossfadeMs`: how far ahead its decoder may go besides the policy's, so the whole of a
    /// crossfade's fade-out is decoded before it begins (its decoder never lags the fade).
    public init(id: UInt64, startMs: Int, download: PreviewDownload, policy: FetchPolicy,
                format: PCMFormat, label: String, depthMs: Int? = nil, crossfadeMs: Int = 0,
                onEvent: @escaping @Sendable (UInt64, PreviewDecoder.Event) -> Void) {
        self.id = id
        self.startMs = startMs
        self.download = download
        self.label = label
        self.onEvent = { onEvent(id, $0) }
        LiveObjects.slots.created()
        // 150 ms of what was read stays: a skip or a pause fades out from what is heard, stepping back
        // over what the device drops (PulseAudio holds about its latency, 100 ms by default).
        pcm = PCMRing(id: id, format: format, capacityFrames: format.frames(milliseconds: policy.pcmAheadMs + max(0, crossfadeMs)),
                      historyFrames: format.frames(milliseconds: 150))
        decoding = Locked(Decoding(depthFrames: depthMs.map { format.frames(milliseconds: $0) }))
        startDecoder(framesBefore: 0)
    }

    deinit { LiveObjects.slots.destroyed() }

    /// Makes sure the whole track gets decoded: a parked decoding goes on from where it stopped. Call
    /// when the slot becomes current.
    public func decodeWhole() {
        let parkedAt = decoding.withLock { d -> Int? in
            d.depthFrames = nil
            defer { d.parkedAt = nil }
            return d.parkedAt
        }
        if let parkedAt { startDecoder(framesBefore: parkedAt) }
    }

    private func startDecoder(framesBefore: Int) {
        let decoder = PreviewDecoder(source: download.bytes, output: pcm, startMs: startMs, framesBefore: framesBefore,
                                     label: label, park: { [weak self] in self?.parks(after: $0) ?? false },
                                     onEvent: onEvent)
        decoding.withLock { $0.decoder = decoder }
        decoder.start()
    }

    /// True when the decoder should stop after `produced` frames: its depth is done and nobody
    /// wants the whole track yet. Records where it stopped.
    private func parks(after produced: Int) -> Bool {
        decoding.withLock { d in
            guard let depth = d.depthFrames, produced >= depth else { return false }
            d.parkedAt = produced
            return true
        }
    }

    /// Stops the decoder; a blocked read or wait returns at once. The download goes on.
    public func cancel() {
        let decoder = decoding.withLock { d -> PreviewDecoder? in
            d.depthFrames = nil   // a parked decoding stays parked
            d.parkedAt = nil
            return d.decoder
        }
        decoder?.cancel()
    }
}
