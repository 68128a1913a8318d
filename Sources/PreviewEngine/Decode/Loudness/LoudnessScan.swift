import PreviewCore

/// Measures a preview's loudness by decoding it with the engine's own pipeline, so what is measured
/// is exactly what plays (48 kHz float after the resampler).
public enum LoudnessScan {
    /// The whole clip: integrated loudness and true peak; nil when it is silent. Call once the
    /// download is complete (reads of missing bytes would wait). About 4 ms of CPU per second of
    /// audio, most of it the true peak's oversampling: run it on a worker, never on the loop.
    public static func whole(_ bytes: PreviewBytes, format: PCMFormat, cancellation: CancellationFlag) throws(DecodeError) -> Loudness? {
        let pipeline = try DecodePipeline(source: bytes, format: format, cancellation: cancellation)
        guard let meter = LoudnessMeter(format: format, truePeak: true) else { return nil }
        while let chunk = try pipeline.next() { meter.add(chunk.samples, frames: chunk.frames) }
        return meter.loudness(isWholeTrack: true)
    }

    /// Audio an estimate reads at most, and needs at least.
    public static let estimateMaxMs = 1_000
    public static let estimateMinMs = 600

    /// An estimate from the first seconds of what has arrived (integrated loudness and sample peak
    /// of at most `estimateMaxMs`), never waiting for more bytes; nil when less than
    /// `estimateMinMs` could be decoded. Bounded: a few milliseconds, cheap enough for a cold start.
    public static func estimate(_ bytes: PreviewBytes, format: PCMFormat) -> Loudness? {
        FFmpegLog.quietly { measurePrefix(bytes, format: format) }   // it ends mid-packet: nothing to report
    }

    private static func measurePrefix(_ bytes: PreviewBytes, format: PCMFormat) -> Loudness? {
        do throws(DecodeError) {
            let pipeline = try DecodePipeline(source: bytes, format: format, byteLimit: bytes.receivedCount)
            guard let meter = LoudnessMeter(format: format, truePeak: false) else { return nil }
            let wanted = format.frames(milliseconds: estimateMaxMs)
            while pipeline.framesProduced < wanted, let chunk = try pipeline.next() {
                meter.add(chunk.samples, frames: min(chunk.frames, wanted - (pipeline.framesProduced - chunk.frames)))
            }
            guard pipeline.framesProduced >= format.frames(milliseconds: estimateMinMs) else { return nil }
            return meter.loudness(isWholeTrack: false)
        } catch {
            return nil   // too little arrived to open or decode: the caller falls back
        }
    }
}
