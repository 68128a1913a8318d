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
    /// Where in the track the first frame written starts.
    public let startMs: Int
    private let source: PreviewBytes
    private let onEvent: @Sendable (Event) -> Void
    /// Consecutive packets the decoder may reject (corrupt bytes) before the file is given up.
    private let maxConsecutiveBadPackets = 32

    /// A decoder of `source` into `output` from `startMs` on; call `start()` to begin.
    public init(source: PreviewBytes, output: PCMBuffer, startMs: Int = 0, onEvent: @escaping @Sendable (Event) -> Void) {
        self.source = source
        self.output = output
        self.startMs = max(0, startMs)
        self.onEvent = onEvent
    }

    /// Starts the decoder thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "previewd.decode"
        thread.start()
    }

    /// Stops the decoder at its next read, wait or packet; a blocked read returns at once. The
    /// download is not touched: another decoder (a seek) may read the same bytes.
    public func cancel() {
        output.cancellation.cancel()
        source.wakeReaders()
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
        let rate = output.format.sampleRate
        let exactFrames = Self.frames(of: stream, at: rate)
        // Frame-accurate seek: demux from a little before the target (AAC needs the previous frame to
        // overlap with), decode, and drop what comes before the target sample.
        let startFrame = startMs * rate / 1000
        var position: Int? = 0          // output frame index of the next converted frame; nil: from pts
        if startFrame > 0 {
            try seek(input, stream: stream, toMs: max(0, startMs - Self.seekPrerollMs))
            avcodec_flush_buffers(decoder.context)
            position = nil
        }
        var announced = false
        func emit(_ converted: Int) throws(DecodeError) {
            guard let at = position else { return }
            position = at + converted
            let skip = min(converted, max(0, startFrame - at))
            let end = min(at + converted, exactFrames ?? Int.max)
            let frames = end - (at + skip)
            guard frames > 0 else { return }
            guard output.write(resampler.scratch + skip * output.format.channels, frames: frames) else { throw .cancelled }
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
                if position == nil {   // first frame after a seek: place it by its timestamp
                    position = Self.outputFrame(of: frame, in: stream, at: rate) ?? startFrame
                }
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

    /// How far before a seek target demuxing starts, so the decoder is warm at the target.
    static let seekPrerollMs = 100

    private func seek(_ input: FormatInput, stream: UnsafeMutablePointer<AVStream>, toMs ms: Int) throws(DecodeError) {
        let base = stream.pointee.time_base
        let target = av_rescale(Int64(ms), Int64(base.den), Int64(base.num) * 1000)
        let result = avformat_seek_file(input.context, stream.pointee.index, Int64.min, target, target, 0)
        guard result >= 0 else { throw input.failure(result, "avformat_seek_file") }
    }

    /// The output frame index where `frame` starts, from its timestamp.
    static func outputFrame(of frame: Frame, in stream: UnsafeMutablePointer<AVStream>, at rate: Int) -> Int? {
        let pts = frame.pointer.pointee.best_effort_timestamp
        guard pts != cff_AV_NOPTS_VALUE() else { return nil }
        let base = stream.pointee.time_base
        return Int(av_rescale(pts, Int64(rate) * Int64(base.num), Int64(base.den)))
    }

    /// The stream's stated duration in frames at `rate`, if it states one.
    static func frames(of stream: UnsafeMutablePointer<AVStream>, at rate: Int) -> Int? {
        let duration = stream.pointee.duration
        let base = stream.pointee.time_base
        guard duration > 0, duration != cff_AV_NOPTS_VALUE(), base.num > 0, base.den > 0 else { return nil }
        return Int(av_rescale_rnd(duration, Int64(rate) * Int64(base.num), Int64(base.den), AV_ROUND_NEAR_INF))
    }
}
