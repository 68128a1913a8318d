import CFFmpeg
import Foundation
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
    private let source: PreviewBytes
    private let onEvent: @Sendable (Event) -> Void
    /// Consecutive packets the decoder may reject (corrupt bytes) before the file is given up.
    private let maxConsecutiveBadPackets = 32

    /// A decoder of `source` into `output`; call `start()` to begin.
    public init(source: PreviewBytes, output: PCMBuffer, onEvent: @escaping @Sendable (Event) -> Void) {
        self.source = source
        self.output = output
        self.onEvent = onEvent
    }

    /// Starts the decoder thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "previewd.decode"
        thread.start()
    }

    /// Stops the decoder at its next read, wait or packet; a blocked read returns at once.
    public func cancel() {
        output.cancellation.cancel()
        source.cancel()
    }

    private func run() {
        var produced = 0
        do {
            try decode(produced: &produced)
            output.finish()
            onEvent(.finished(frames: produced))
        } catch {
            output.finish()
            onEvent(.failed(error, framesBefore: produced))
        }
    }

    private func decode(produced: inout Int) throws(DecodeError) {
        let cancellation = output.cancellation
        let input = try FormatInput(source: source, cancellation: cancellation)
        let stream = try input.selectAudioStream()
        let decoder = try AudioDecoder(stream: stream)
        let resampler: Resampler
        let packet: Packet
        let frame: Frame
        do {
            resampler = try Resampler(from: decoder.context, to: output.format)
            packet = try Packet()
            frame = try Frame()
        } catch { throw .ffmpeg(error) }

        // The stream's duration is the edit list's: the real audio without priming or end padding.
        // The decoder drops the priming (skip_samples); stopping at this length drops the padding.
        let exactFrames = Self.frames(of: stream, at: output.format.sampleRate)
        var announced = false
        func emit(_ converted: Int) throws(DecodeError) {
            let frames = min(converted, exactFrames.map { $0 - produced } ?? converted)
            guard frames > 0 else { return }
            guard output.write(resampler.scratch, frames: frames) else { throw .cancelled }
            produced += frames
            if !announced {
                announced = true
                onEvent(.ready(durationMs: input.durationMs))
            }
        }
        func drainFrames() throws(DecodeError) {
            while true {
                let got: Bool
                do { got = try decoder.receive(into: frame) } catch { throw .ffmpeg(error) }
                guard got else { return }
                let converted: Int
                do { converted = try resampler.convert(frame) } catch { throw .ffmpeg(error) }
                try emit(converted)
            }
        }

        var badPackets = 0
        let streamIndex = stream.pointee.index
        while true {
            if cancellation.isCancelled { throw .cancelled }
            let more: Bool
            do {
                more = try input.read(into: packet)
            } catch {
                // Corrupt or cut-off bytes after good audio: play what was decoded, stop there.
                if case .ffmpeg = error, produced > 0 { break }
                throw error
            }
            guard more else { break }
            defer { packet.unref() }
            guard packet.pointer.pointee.stream_index == streamIndex else { continue }
            while true {
                let accepted: Bool
                do {
                    accepted = try decoder.send(packet)
                    badPackets = 0
                } catch {
                    // One corrupt packet is skipped; a run of them means the file is not audio.
                    badPackets += 1
                    if badPackets > maxConsecutiveBadPackets { throw .ffmpeg(error) }
                    break
                }
                try drainFrames()
                if accepted { break }
            }
        }
        do { _ = try decoder.send(nil) } catch { throw .ffmpeg(error) }
        try drainFrames()
        let tail: Int
        do { tail = try resampler.convert(nil) } catch { throw .ffmpeg(error) }
        try emit(tail)
        guard produced > 0 else { throw .noAudio }
    }

    /// The stream's stated duration in frames at `rate`, if it states one.
    static func frames(of stream: UnsafeMutablePointer<AVStream>, at rate: Int) -> Int? {
        let duration = stream.pointee.duration
        let base = stream.pointee.time_base
        guard duration > 0, duration != cff_AV_NOPTS_VALUE(), base.num > 0, base.den > 0 else { return nil }
        return Int(av_rescale_rnd(duration, Int64(rate) * Int64(base.num), Int64(base.den), AV_ROUND_NEAR_INF))
    }
}
