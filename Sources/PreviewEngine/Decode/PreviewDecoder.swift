#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CPreviewLinux
import PreviewCore

/// Decodes one preview on a worker of the decoders' pool: AVIO over the preview's bytes → demux →
/// AAC decode → resample → the preview's `PCMRing`. FFmpeg's reads block, so this runs on
/// long-lived threads of its own, never on the engine loop; results are reported as values through
/// `onEvent`, never thrown across threads.
public final class PreviewDecoder: Sendable {
    /// What the decoder reports, in this order: `ready` at most once (not by a decoder that
    /// continues another's work), then `parked`, `finished` or `failed`.
    public enum Event: Equatable, Sendable {
        /// The header is parsed and the first PCM is in the buffer. `durationMs` is the container's.
        case ready(durationMs: Int?)
        /// The decoder stopped where its `park` rule said, after `frames` (counted from the track's
        /// start frame); its FFmpeg objects are freed and the buffer is not finished: another
        /// decoder may continue from there.
        case parked(frames: Int)
        /// Every frame was decoded into the buffer (which is now finished).
        case finished(frames: Int)
        /// Decoding stopped; frames written before stay playable (the buffer is finished).
        case failed(DecodeError, framesBefore: Int)
    }

    /// Where PCM goes; its cancellation flag also cancels this decoder.
    public let output: PCMRing
    /// Where in the track the first frame written starts, in milliseconds.
    public let startMs: Int
    /// Frames of the track already in `output` before this decoder's first (another decoder's).
    public let framesBefore: Int
    /// Names the track in FFmpeg's log lines ("track 1440857781").
    public let label: String
    private let source: PreviewBytes
    private let park: @Sendable (Int) -> Bool
    private let onEvent: @Sendable (Event) -> Void

    /// A decoder of `source` into `output` from `startMs` on; when another decoder already wrote
    /// the first `framesBefore` frames from there, it writes from the frame after them. After each chunk it asks `park` with the frames
    /// written so far (from `startMs`); true stops it there (`parked`). Call `start()` to begin.
    public init(source: PreviewBytes, output: PCMRing, startMs: Int = 0, framesBefore: Int = 0, label: String = "preview",
                park: @escaping @Sendable (Int) -> Bool = { _ in false }, onEvent: @escaping @Sendable (Event) -> Void) {
        self.source = source
        self.label = label
        self.output = output
        self.startMs = max(0, startMs)
        self.framesBefore = max(0, framesBefore)
        self.park = park
        self.onEvent = onEvent
    }

    /// The decoders' threads, shared by every decoder of the process.
    static let workers = WorkerPool(name: "previewd.decode")

    /// Returns once every decoder has ended (after they were cancelled: at shutdown, so no decoder
    /// still holds what it reports to when the process exits).
    public static func waitUntilAllEnded() {
        workers.waitUntilIdle()
    }

    /// Starts decoding on a worker.
    public func start() {
        Self.workers.run { [self] in run() }
    }

    /// Stops the decoder at its next read, wait or packet; a blocked read returns at once. The
    /// download is not touched: another decoder (a seek) may read the same bytes.
    public func cancel() {
        output.cancel()
        source.wakeReaders()
    }

    private func run() {
        cpl_set_thread_label(label)
        defer {
            cpl_set_thread_label(nil)
            FFmpegLog.readsAgain()
        }
        // Reported once `decode` has returned and its pipeline (its FFmpeg objects) is freed, so the
        // player's heap trim on this event finds that memory free.
        onEvent(decode())
    }

    /// Decodes until the end, a park or a failure; reports `ready` on the way and returns the last event.
    private func decode() -> Event {
        var produced = 0
        let channels = output.format.channels
        do throws(DecodeError) {
            let pipeline = try DecodePipeline(source: source, format: output.format, startMs: startMs,
                                              cancellation: output.cancellationFlag)
            if let expected = pipeline.framesExpected { output.expect(frames: expected) }
            while let chunk = try pipeline.next() {
                // Continuing a parked head: decode the head again (a quarter second of audio, well
                // under a millisecond) and drop it, so the resampler's history is the head's and the
                // first frame written follows it bit for bit, as a seek could not.
                let skip = min(chunk.frames, max(0, framesBefore - produced))
                if skip < chunk.frames {
                    guard output.write(chunk.samples + skip * channels, frames: chunk.frames - skip) else { throw .cancelled }
                }
                if produced == 0, framesBefore == 0 { onEvent(.ready(durationMs: pipeline.containerDurationMs)) }
                produced += chunk.frames
                if park(produced) { return .parked(frames: produced) }
            }
            guard produced > 0 else { throw .noAudio }
            output.finish()
            return .finished(frames: produced)
        } catch {
            output.finish()
            return .failed(error, framesBefore: produced)
        }
    }
}
