import CFFmpeg
import PreviewCore

/// Demux → decode → resample of one preview, pulled one PCM chunk at a time. No thread of its own:
/// `PreviewDecoder` drives it on a decoder thread, and benchmarks and tests can drive it directly
/// (as MPD's decoders can run alone).
public final class DecodePipeline {
    /// A run of interleaved frames in the engine format, valid until the next `next()` call.
    public struct Chunk {
        public let samples: UnsafePointer<Float>
        public let frames: Int
    }

    /// The container's stated duration.
    public let containerDurationMs: Int?
    /// The output format.
    public let format: PCMFormat

    private let input: FormatInput
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: AudioDecoder
    private let resampler: Resampler
    private let packet: Packet
    private let frame: Frame
    private let cancellation: CancellationFlag

    private enum Phase { case reading, draining, flushingResampler, done }
    private var phase = Phase.reading
    private var packetPending = false     // a packet the decoder refused with EAGAIN, to send again
    private var badPackets = 0
    private var produced = 0
    /// Output frame index of the next converted frame; nil right after a seek, until a timestamp places it.
    private var position: Int? = 0
    private let startFrame: Int
    private let exactFrames: Int?

    /// Consecutive packets the decoder may reject (corrupt bytes) before the file is given up.
    static let maxConsecutiveBadPackets = 32
    /// How far before a seek target demuxing starts, so the decoder is warm at the target.
    static let seekPrerollMs = 100

    /// Opens `source` (header only) and, when `startMs` > 0, seeks so the first chunk starts there.
    /// With `byteLimit`, only that many of its bytes are read (the part that had arrived), never
    /// waiting for more: the audio ends where they do.
    public init(source: PreviewBytes, format: PCMFormat, startMs: Int = 0,
                cancellation: CancellationFlag = CancellationFlag(), byteLimit: Int? = nil) throws(DecodeError) {
        self.format = format
        self.cancellation = cancellation
        input = try FormatInput(source: source, cancellation: cancellation, byteLimit: byteLimit)
        stream = try input.selectAudioStream()
        decoder = try AudioDecoder(stream: stream)
        do {
            resampler = try Resampler(from: decoder.context, to: format)
            packet = try Packet()
            frame = try Frame()
        } catch { throw .ffmpeg(error) }
        containerDurationMs = input.durationMs
        // The stream's duration is the edit list's: the real audio without priming or end padding.
        // The decoder drops the priming (skip_samples); stopping at this length drops the padding.
        exactFrames = Self.frames(of: stream, at: format.sampleRate)
        // Frame-accurate seek: demux from a little before the target (AAC needs the previous frame to
        // overlap with), decode, and drop what comes before the target frame.
        startFrame = max(0, startMs) * format.sampleRate / 1000
        LiveObjects.decoders.created()   // every stored property is set: deinit runs from here on, even if the seek throws
        if startFrame > 0 {
            let base = stream.pointee.time_base
            let target = av_rescale(Int64(max(0, startMs - Self.seekPrerollMs)), Int64(base.den), Int64(base.num) * 1000)
            let result = avformat_seek_file(input.context, stream.pointee.index, Int64.min, target, target, 0)
            guard result >= 0 else { throw input.failure(result, "avformat_seek_file") }
            avcodec_flush_buffers(decoder.context)
            position = nil
        }
    }

    deinit { LiveObjects.decoders.destroyed() }

    /// Frames this pipeline will return in all, from its start, when the stream states its length.
    public var framesExpected: Int? { exactFrames.map { max(0, $0 - startFrame) } }

    /// Frames returned so far.
    public var framesProduced: Int { produced }

    /// The next chunk of PCM, or nil at the end of the audio.
    public func next() throws(DecodeError) -> Chunk? {
        while true {
            if cancellation.isCancelled { throw .cancelled }
            switch phase {
            case .reading, .draining:
                switch try receive() {
                case .frame(let chunk?): return chunk
                case .frame(nil): continue          // all of it before the seek target or past the end
                case .none where phase == .draining: phase = .flushingResampler
                case .none: try feed()
                }
            case .flushingResampler:
                phase = .done
                let tail: Int
                do { tail = try resampler.convert(nil) } catch { throw .ffmpeg(error) }
                if let chunk = clip(tail) { return chunk }
            case .done:
                return nil
            }
        }
    }

    // MARK: Private

    private enum Received {
        /// The decoder needs input (or is drained).
        case none
        /// A frame was decoded; the chunk is what of it lies in the wanted range.
        case frame(Chunk?)
    }

    /// Takes one decoded frame, if the decoder has one, and converts it.
    private func receive() throws(DecodeError) -> Received {
        let got: Bool
        do { got = try decoder.receive(into: frame) } catch { throw .ffmpeg(error) }
        guard got else { return .none }
        if position == nil {   // first frame after a seek: place it by its timestamp
            position = Self.outputFrame(of: frame, in: stream, at: format.sampleRate) ?? startFrame
        }
        let converted: Int
        do { converted = try resampler.convert(frame) } catch { throw .ffmpeg(error) }
        return .frame(clip(converted))
    }

    /// Gives the decoder its next packet (or the end of the stream).
    private func feed() throws(DecodeError) {
        if !packetPending {
            let more: Bool
            do {
                more = try input.read(into: packet)
            } catch {
                // Corrupt or cut-off bytes after good audio: play what was decoded, stop there.
                guard case .ffmpeg = error, produced > 0 else { throw error }
                more = false
            }
            guard more else {
                do { _ = try decoder.send(nil) } catch { throw .ffmpeg(error) }
                phase = .draining
                return
            }
            guard packet.pointer.pointee.stream_index == stream.pointee.index else { packet.unref(); return }
        }
        do {
            packetPending = try !decoder.send(packet)   // EAGAIN: frames first, then this packet again
            badPackets = 0
        } catch {
            // One corrupt packet is skipped; a run of them means the file is not audio.
            packetPending = false
            badPackets += 1
            if badPackets > Self.maxConsecutiveBadPackets { packet.unref(); throw .ffmpeg(error) }
        }
        if !packetPending { packet.unref() }
    }

    /// The part of the `converted` frames in the resampler's scratch that lies in [start, exact end).
    private func clip(_ converted: Int) -> Chunk? {
        guard let at = position else { return nil }
        position = at + converted
        let skip = min(converted, max(0, startFrame - at))
        let end = min(at + converted, exactFrames ?? Int.max)
        let frames = end - (at + skip)
        guard frames > 0 else { return nil }
        produced += frames
        return Chunk(samples: resampler.scratch + skip * format.channels, frames: frames)
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
