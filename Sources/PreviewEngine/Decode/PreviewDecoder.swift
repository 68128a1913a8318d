#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CPreviewLinux
import PreviewCore

/// Decodes one preview on its own thread: AVIO over the preview's bytes → demux → AAC decode →
/// resample → the preview's `PCMBuffer`. FFmpeg's reads block, so this stays off Swift's cooperative
/// pool; results are reported as values through `onEvent`, never thrown across threads.
public final class PreviewDecoder: @unchecked Sendable {
    /// What the decoder reports, in this order: `ready` at most once, then `finished` or `failed`.
    public enum Event: Equatable, Sendable {
        /// The header is parsed and the first PCM is in the buffer. `durationMs` is the container's.
        case ready(durationMs: Int?)
        /// Every frame was decoded into the buffer (which is now finished).
        case finished(frames: Int)
        /// Decoding stopped; frames written before stay playable (the buffer is finished).
        case failed(DecodeError, framesBefore: Int)
    }

    /// Where PCM goes; its cancellation flag also cancels this decoder.
    public let output: PCMBuffer
    /// Where in the track the first frame written starts.
    public let startMs: Int
    /// Names the track in FFmpeg's log lines ("track 1440857781").
    public let label: String
    private let source: PreviewBytes
    private let onEvent: @Sendable (Event) -> Void

    /// A decoder of `source` into `output` from `startMs` on; call `start()` to begin.
    public init(source: PreviewBytes, output: PCMBuffer, startMs: Int = 0, label: String = "preview",
                onEvent: @escaping @Sendable (Event) -> Void) {
        self.source = source
        self.label = label
        self.output = output
        self.startMs = max(0, startMs)
        self.onEvent = onEvent
    }

    /// Starts the decoder thread.
    public func start() {
        startThread { [self] in run() }
    }

    /// Stops the decoder at its next read, wait or packet; a blocked read returns at once. The
    /// download is not touched: another decoder (a seek) may read the same bytes.
    public func cancel() {
        output.cancellation.cancel()
        source.wakeReaders()
    }

    private func run() {
        cpl_set_thread_label(label)
        defer { cpl_set_thread_label(nil) }
        var produced = 0
        do throws(DecodeError) {
            let pipeline = try DecodePipeline(source: source, format: output.format, startMs: startMs,
                                              cancellation: output.cancellation)
            while let chunk = try pipeline.next() {
                guard output.write(chunk.samples, frames: chunk.frames) else { throw .cancelled }
                if produced == 0 { onEvent(.ready(durationMs: pipeline.containerDurationMs)) }
                produced += chunk.frames
            }
            guard produced > 0 else { throw .noAudio }
            output.finish()
            onEvent(.finished(frames: produced))
        } catch {
            output.finish()
            onEvent(.failed(error, framesBefore: produced))
        }
    }
}
