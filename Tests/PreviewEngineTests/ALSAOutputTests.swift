import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The ALSA output through ALSA's `file` plugin, which keeps every frame the device was given: two
/// previews decoded and joined by the sequencer (gapless) against one FFmpeg run decoding both and
/// joining them, each trimmed to its stated duration as previewd trims it.
final class ALSAOutputTests: XCTestCase {
    /// At the previews' own rate nothing is resampled: the frames are FFmpeg's own, sample for sample.
    func testTwoPreviewsJoinAt44100S16AsFFmpegDecodesThem() throws {
        let (played, reference) = try playJoined(format: "44100:16:2", ffmpegFormat: "s16le", rate: 44_100)
        XCTAssertEqual(played.count, reference.count, "frames written")
        // The start fades in over the sequencer's ramp (no click); from there on, FFmpeg's own samples.
        let ramp = PCMFormat(sampleRate: 44_100, channels: 2).frames(milliseconds: OutputSequencer.rampMilliseconds) * 4
        let ours = played.dropFirst(ramp), theirs = reference.dropFirst(ramp)
        XCTAssertTrue(ours == theirs, "first difference at byte \(zip(ours.indices, theirs.indices).first { played[$0] != reference[$1] }?.0 ?? -1)")
    }

    /// At 48 kHz both are resampled; previewd resamples each preview alone (as it plays them), FFmpeg
    /// the joined stream: equal within a resampler's rounding, except right at the join.
    func testTwoPreviewsJoinAt48000S32CloseToFFmpeg() throws {
        let (played, reference) = try playJoined(format: "48000:32:2", ffmpegFormat: "s32le", rate: 48_000)
        let ours = samples(played), theirs = samples(reference)
        XCTAssertEqual(ours.count, theirs.count, accuracy: 2 * 2, "frames written")
        let join = 8 * 48_000 * 2
        var worst = 0.0
        let ramp = PCMFormat(sampleRate: 48_000, channels: 2).frames(milliseconds: OutputSequencer.rampMilliseconds) * 2
        for index in ramp..<min(ours.count, theirs.count) where abs(index - join) > 480 * 2 {   // past the start's fade-in
            worst = max(worst, abs(Double(ours[index]) - Double(theirs[index])) / 2_147_483_648)
        }
        XCTAssertLessThan(worst, 1e-3, "largest difference from FFmpeg's decode, of full scale")
    }

    // MARK: Helpers

    /// Plays tone-440 then tone-550 (enqueued: gapless) into the file plugin with `--alsa-format
    /// format`; returns the file's bytes and FFmpeg's decode of both in `ffmpegFormat` at `rate`.
    private func playJoined(format: String, ffmpegFormat: String, rate: Int) throws -> (Data, Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previewd-alsa-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("played.raw").path
        let config = try ALSATestConfig(rawFile: raw)
        defer { config.remove() }
        let sequencer = try OutputRegistry.makeSequencer(OutputOptions(output: "alsa:" + config.device, alsaFormat: format))
        XCTAssertEqual(sequencer.format.sampleRate, rate)
        let events = Locked<[OutputEvent]>([])
        sequencer.setEventHandler { event in events.withLock { $0.append(event) } }
        let first = try decode(Fixtures.tone(440), id: 1, format: sequencer.format)
        let second = try decode(Fixtures.tone(550), id: 2, format: sequencer.format)
        sequencer.play(first, paused: false)
        sequencer.enqueue(second)
        eventually(timeout: 30) { events.withLock { $0.contains(.drained(2)) } }   // a hang guard: the null device plays at once
        XCTAssertEqual(events.withLock { $0 }, [.drained(1), .started(2), .drained(2)])
        sequencer.close()   // the file plugin writes its last frames as the device closes

        let reference = folder.appendingPathComponent("ffmpeg.raw").path
        let end = 8 * 44_100   // each fixture's stated duration, in its own samples
        let ffmpeg = try XCTUnwrap(ProcessRunner.which("ffmpeg"), "ffmpeg not found")
        let result = try ProcessRunner.run(ffmpeg, ["-v", "error", "-i", Fixtures.tone(440).path, "-i", Fixtures.tone(550).path,
                                                    "-filter_complex", "[0:a]atrim=end_sample=\(end)[a];[1:a]atrim=end_sample=\(end)[b];[a][b]concat=n=2:v=0:a=1",
                                                    "-ar", String(rate), "-ac", "2", "-f", ffmpegFormat, "-y", reference], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = try Data(contentsOf: URL(fileURLWithPath: reference))
        // The thread closes the device after `close`: wait for the file to hold everything, and to grow no more.
        let size = { ((try? FileManager.default.attributesOfItem(atPath: raw))?[.size] as? NSNumber)?.intValue ?? 0 }
        eventually { size() >= expected.count - 16 }
        _ = settled(quiet: 0.1) { size() }
        let played = (try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data()
        return (played, expected)
    }

    /// The whole preview at `url`, decoded into a finished feed in `format`.
    private func decode(_ url: URL, id: UInt64, format: PCMFormat) throws -> PCMRing {
        let bytes = try Data(contentsOf: url)
        let source = PreviewBytes()
        source.expect(length: bytes.count)
        source.append(bytes)
        source.finish()
        let pcm = PCMRing(id: id, format: format, capacityFrames: format.sampleRate * 9)
        let done = DispatchSemaphore(value: 0)
        PreviewDecoder(source: source, output: pcm) { event in
            if case .ready = event { return }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(30)), .success, "decoder did not finish")
        return pcm
    }

    private func samples(_ data: Data) -> [Int32] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)).map { Int32(littleEndian: $0) } }
    }
}
