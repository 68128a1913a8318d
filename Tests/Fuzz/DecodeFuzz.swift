// libFuzzer target: the whole decode path a preview's bytes take (AVIO bridge → mov demuxer →
// AAC/MP3 decoder → resampler following each frame's shape), built by scripts/fuzz with the decode
// sources of PreviewEngine and Debian's FFmpeg. A crash, a hang or a broken invariant is a finding.
import CFFmpeg
import PreviewCore

/// FFmpeg's own complaints about broken input are expected here; printing them only slows the fuzzer.
private let quiet: Void = av_log_set_level(AV_LOG_QUIET)

@_cdecl("LLVMFuzzerTestOneInput")
public func decodeFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = quiet
    let source = PreviewBytes()
    source.expect(length: count)
    _ = source.append(UnsafeRawBufferPointer(start: start, count: count))
    source.finish()
    let format = PCMFormat.preferred
    guard let pipeline = try? DecodePipeline(source: source, format: format) else { return 0 }
    var total = 0
    while let chunk = try? pipeline.next() {
        precondition(chunk.frames > 0, "an empty chunk")
        // Whatever shape the frames had, the output is the engine format: finite samples.
        for i in stride(from: 0, to: chunk.frames * format.channels, by: 97) {
            precondition(chunk.samples[i].isFinite, "a sample that is not finite")
        }
        total += chunk.frames
        precondition(total == pipeline.framesProduced, "the pipeline miscounts its frames")
    }
    return 0
}
