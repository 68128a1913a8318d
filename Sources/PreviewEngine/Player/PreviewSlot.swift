#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// One decoding of a track: a decoder reading the track's shared download from `startMs`, and the
/// PCM it produces for the output. The current track has one; so do the prefetched neighbours, whose
/// first seconds are decoded ahead so `next` and `prev` only swap a slot. Cancelling a slot stops
/// its decoder only; the download is shared and outlives it.
public final class PreviewSlot: @unchecked Sendable {  // `_phase` is guarded by `phaseLock`
    /// How far the decoder has come.
    public enum Phase: Equatable, Sendable {
        case decoding, ready, finished, failed(String)
    }

    /// Unique per slot; decoder events carry it.
    public let id: UInt64
    /// The queue index it decodes; changed by the player (only) when the queue is edited.
    public var index: Int
    /// Where in the track the decoded audio starts.
    public let startMs: Int
    /// The download it reads.
    public let download: PreviewDownload
    /// The decoded audio, for the output to play.
    public let pcm: PCMBuffer
    private let decoder: PreviewDecoder
    private let phaseLock = Lock()
    private var _phase = Phase.decoding   // protected by phaseLock

    /// Starts decoding `download` from `startMs` (`label` names the track in FFmpeg's log lines); events come to `onEvent` from the decoder thread.
    public init(id: UInt64, index: Int, startMs: Int, download: PreviewDownload, policy: FetchPolicy,
                format: PCMFormat, label: String, onEvent: @escaping @Sendable (UInt64, PreviewDecoder.Event) -> Void) {
        self.id = id
        self.index = index
        self.startMs = startMs
        self.download = download
        pcm = PCMBuffer(format: format, capacityFrames: format.frames(milliseconds: policy.pcmAheadMs))
        decoder = PreviewDecoder(source: download.bytes, output: pcm, startMs: startMs, label: label) { onEvent(id, $0) }
        decoder.start()
    }

    /// Where the decoder is.
    public var phase: Phase {
        phaseLock.lock(); defer { phaseLock.unlock() }
        return _phase
    }

    /// Records what the decoder reported (called by the player, in event order).
    public func record(_ event: PreviewDecoder.Event) {
        phaseLock.lock(); defer { phaseLock.unlock() }
        switch event {
        case .ready: if _phase == .decoding { _phase = .ready }
        case .finished: _phase = .finished
        case .failed(.cancelled, _): break
        case .failed(let error, let before): _phase = before > 0 ? .finished : .failed(error.message)
        }
    }

    /// True when the decoder has put audio in the buffer (or finished).
    public var hasAudio: Bool {
        switch phase {
        case .ready, .finished: return true
        case .decoding, .failed: return false
        }
    }

    /// The state for `status`.
    public var stateName: String {
        switch phase {
        case .decoding: return "decoding"
        case .ready: return "ready"
        case .finished: return "finished"
        case .failed: return "failed"
        }
    }

    /// Stops the decoder; a blocked read or wait returns at once. The download goes on.
    public func cancel() { decoder.cancel() }
}
