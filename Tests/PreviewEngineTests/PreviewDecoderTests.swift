import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

final class PreviewDecoderTests: XCTestCase {
    /// Decodes `bytes` completely into a buffer big enough for all of it; returns the events and samples.
    private func decodeAll(_ bytes: Data, startMs: Int = 0, capacitySeconds: Int = 12) -> (events: [PreviewDecoder.Event], samples: [Float]) {
        let source = PreviewBytes()
        source.expect(length: bytes.count)
        source.append(bytes)
        source.finish()
        let pcm = PCMRing(capacityFrames: PCMFormat.preferred.sampleRate * capacitySeconds)
        let events = EventLog()
        let done = DispatchSemaphore(value: 0)
        let decoder = PreviewDecoder(source: source, output: pcm, startMs: startMs) { event in
            events.append(event)
            if case .ready = event { return }
            done.signal()
        }
        decoder.start()
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(30)), .success, "decoder did not finish")
        var samples = [Float](repeating: 0, count: pcm.availableFrames * 2)
        let n = samples.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: pcm.availableFrames) }
        return (events.all, Array(samples.prefix(n * 2)))
    }

    private func mono(_ stereo: [Float]) -> [Float] {
        stride(from: 0, to: stereo.count - 1, by: 2).map { (stereo[$0] + stereo[$0 + 1]) / 2 }
    }

    /// A prefetched neighbour decodes a head and parks (its FFmpeg objects freed); a second
    /// decoder continues at the exact frame into the same buffer. Together they give the samples of
    /// one uninterrupted decode, bit for bit.
    func testAParkedHeadContinuesAtTheExactFrame() throws {
        let bytes = try Data(contentsOf: Fixtures.tone(440))
        let whole = decodeAll(bytes).samples
        let source = PreviewBytes()
        source.expect(length: bytes.count)
        source.append(bytes)
        source.finish()
        let pcm = PCMRing(capacityFrames: PCMFormat.preferred.sampleRate * 12)
        let head = PCMFormat.preferred.frames(milliseconds: 250)
        let events = EventLog()
        let stopped = DispatchSemaphore(value: 0)
        let note = { @Sendable (event: PreviewDecoder.Event) in
            events.append(event)
            if case .ready = event { return }
            stopped.signal()
        }
        PreviewDecoder(source: source, output: pcm, park: { $0 >= head }, onEvent: note).start()
        XCTAssertEqual(stopped.wait(timeout: .now() + Patience.seconds(30)), .success)
        guard case .parked(let parkedAt)? = events.all.last else { return XCTFail("\(events.all)") }
        XCTAssertGreaterThanOrEqual(parkedAt, head)
        XCTAssertLessThan(parkedAt, head + 2048, "it stops within one decoded frame of the head")
        XCTAssertEqual(pcm.availableFrames, parkedAt)
        XCTAssertFalse(pcm.isFinished, "a parked head leaves the buffer open for the rest")

        PreviewDecoder(source: source, output: pcm, framesBefore: parkedAt, onEvent: note).start()
        XCTAssertEqual(stopped.wait(timeout: .now() + Patience.seconds(30)), .success)
        guard case .finished(let total)? = events.all.last else { return XCTFail("\(events.all)") }
        XCTAssertEqual(events.all.filter { if case .ready = $0 { return true } else { return false } }.count, 1,
                       "the continuing decoder does not announce the track again")
        XCTAssertEqual(total, whole.count / 2, "the same number of frames as one decode")
        var joined = [Float](repeating: 0, count: pcm.availableFrames * 2)
        let n = joined.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: pcm.availableFrames) }
        XCTAssertEqual(n * 2, whole.count)
        XCTAssertTrue(joined == whole, "head and continuation are one decode's samples, bit for bit")
    }

    /// Frames that change shape mid-stream (MP3: stereo 44.1 kHz → mono → stereo 48 kHz; AAC:
    /// mono → stereo) decode whole, at the engine's rate and the tone's own pitch in every part, both
    /// channels sounding in the mono part.
    func testFramesThatChangeShapeDecodeWholeAtTheirPitch() throws {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: 44_100)
        for (name, hz, seconds, parts) in [("shape-mp3.m4a", 1250.0, 6.1, 3), ("shape-aac.m4a", 1400.0, 4.0, 2)] {
            let (events, samples) = decodeAll(try Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/\(name)")))
            guard case .finished(let frames)? = events.last else { return XCTFail("\(name): \(events)") }
            XCTAssertEqual(Double(frames) / 44_100, seconds, accuracy: 0.15, "\(name) decoded whole")
            for part in 0..<parts {   // the middle 100 ms of each 2 s part
                let middle = (part * 2 + 1) * 44_100
                let left = stride(from: middle * 2, to: (middle + 4800) * 2, by: 2).map { samples[$0] }
                let right = stride(from: middle * 2 + 1, to: (middle + 4800) * 2, by: 2).map { samples[$0] }
                XCTAssertEqual(detector.dominantTone(in: left[...]), hz, "\(name), part \(part + 1), left")
                XCTAssertEqual(detector.dominantTone(in: right[...]), hz, "\(name), part \(part + 1), right")
            }
        }
    }

    /// Found by `scripts/fuzz decode`: a header whose audio parameters swresample refuses made
    /// swr_alloc_set_opts2 free the resampler's context, which was then freed again. Now a clean error.
    func testAFileWhoseParametersTheResamplerRefusesFailsCleanly() throws {
        let input = Fixtures.directory.deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/decode/swr-double-free.mp4")
        let (events, _) = decodeAll(try Data(contentsOf: input))
        guard case .failed(let error, _)? = events.last else { return XCTFail("\(events)") }
        XCTAssertNotEqual(error, .cancelled)
    }

    func testDecodesEachToneFixtureToItsFrequencyAtEngineRate() throws {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: 44_100)
        for hz in [440, 660, 880, 1100] {   // 44.1 kHz stereo, 22.05 kHz mono, 48 kHz stereo sources
            let (events, samples) = decodeAll(try Data(contentsOf: Fixtures.tone(hz)))
            guard case .ready(let durationMs)? = events.first, case .finished(let frames)? = events.last else {
                return XCTFail("events for \(hz) Hz: \(events)")
            }
            XCTAssertEqual(durationMs ?? 0, 8000, accuracy: 30)
            // Priming and padding trimmed: exactly 8 s of tone at the engine rate.
            XCTAssertEqual(frames, 8 * 44_100, "\(hz) Hz decoded to \(frames) frames")
            let m = mono(samples)
            let middle = m[m.count / 2 ..< m.count / 2 + 4800]
            XCTAssertEqual(detector.dominantTone(in: middle), Double(hz))
        }
    }

    func testContainerVariantsDecodeToTheirToneAndLength() throws {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: 44_100)
        let oneAACFrame = 1024   // samples at 44.1 kHz, the decode rate
        let variants: [(String, Double)] = [
            ("tone-440-moov-at-end.m4a", 440),   // moov after mdat: the demuxer seeks to the end
            ("tone-660-fragmented.m4a", 660),    // fragmented MP4 (moof/mdat pairs)
            ("tone-880-video.m4v", 880),         // a music-video preview: the video track is ignored
        ]
        for (name, hz) in variants {
            let url = Fixtures.directory.appendingPathComponent("previews/\(name)")
            let (events, samples) = decodeAll(try Data(contentsOf: url))
            guard case .finished(let frames)? = events.last else { return XCTFail("\(name): \(events)") }
            XCTAssertEqual(frames, 3 * 44_100, accuracy: oneAACFrame, name)
            let m = mono(samples)
            XCTAssertEqual(detector.dominantTone(in: m[m.count / 2 ..< m.count / 2 + 4800]), hz, name)
        }
    }

    func testSeekStartsAtTheExactFrame() throws {
        let bytes = try Data(contentsOf: Fixtures.tone(440))
        let (events, samples) = decodeAll(bytes, startMs: 3_000)
        guard case .finished(let frames)? = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(frames, 5 * 44_100, "from 3 s to the end of an 8 s track")
        // Same samples as a full decode from 3 s on (the preroll makes the decoder warm at the target).
        let full = decodeAll(bytes).samples
        let offset = 3 * 44_100 * 2
        let compared = 44_100 * 2
        var maxDifference: Float = 0
        for i in 0..<compared { maxDifference = max(maxDifference, abs(full[offset + i] - samples[i])) }
        XCTAssertLessThan(maxDifference, 1e-3, "seeked audio differs from the same stretch decoded from the start")

        let (pastEnd, rest) = decodeAll(bytes, startMs: 9_000)
        XCTAssertTrue(rest.isEmpty)
        XCTAssertEqual(pastEnd.count, 1, "\(pastEnd)")
    }

    func testCorruptMiddlePlaysWhatCanBeDecoded() throws {
        var bytes = [UInt8](try Data(contentsOf: Fixtures.tone(660)))
        // Overwrite 2 KB in the middle of the media data with garbage.
        for i in (bytes.count / 2)..<(bytes.count / 2 + 2048) { bytes[i] = UInt8(truncatingIfNeeded: i &* 97) }
        let (events, samples) = decodeAll(Data(bytes))
        guard case .finished(let frames)? = events.last else { return XCTFail("\(events)") }
        XCTAssertGreaterThan(frames, 7 * 44_100, "most of the track should still play")
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: 44_100)
        let m = mono(samples)
        XCTAssertEqual(detector.dominantTone(in: m[44_100 ..< 48_900]), 660)
        XCTAssertLessThanOrEqual(m.map(abs).max() ?? 0, 1.0, "no noise bursts beyond full scale")
    }

    func testGarbageIsATypedErrorNotACrash() {
        let inputs: [String: Data] = [
            "empty": Data(),
            "html": Data("<html><body>Not found</body></html>".utf8),
            "random": Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
        ]
        for (name, bytes) in inputs {
            let (events, samples) = decodeAll(bytes)
            guard case .failed(let error, let before)? = events.last else { return XCTFail("\(name): \(events)") }
            XCTAssertEqual(before, 0, name)
            XCTAssertTrue(samples.isEmpty, name)
            XCTAssertFalse(error.message.isEmpty, name)
        }
    }

    func testAFileWithoutAudioIsNoAudioStream() throws {
        let (events, samples) = decodeAll(try Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/video-only.m4v")))
        XCTAssertEqual(events, [.failed(.noAudioStream, framesBefore: 0)])
        XCTAssertTrue(samples.isEmpty)
    }

    func testTruncatedFilePlaysWhatArrived() throws {
        let whole = try Data(contentsOf: Fixtures.tone(440))
        let (events, _) = decodeAll(whole.prefix(whole.count / 2))
        switch events.last {
        case .finished(let frames)?: XCTAssertGreaterThan(frames, 44_100)
        case .failed(_, let before)?: XCTAssertGreaterThan(before, 44_100)
        default: XCTFail("\(events)")
        }
    }

    func testCancelEndsABlockedRead() throws {
        let whole = try Data(contentsOf: Fixtures.tone(440))
        let source = PreviewBytes()
        source.append(whole.prefix(100))   // header incomplete: the demuxer's read will block
        let pcm = PCMRing(capacityFrames: 44_100)
        let done = DispatchSemaphore(value: 0)
        let events = EventLog()
        let decoder = PreviewDecoder(source: source, output: pcm) { events.append($0); done.signal() }
        let busy = Self.busyDecoders()
        decoder.start()
        // Cancelled once its read waits: a worker has taken the decoder, and no decoder worker moves.
        // (A cancel that comes earlier ends the same way: this wait gives the case its name and checks nothing.)
        if eventually({ Self.busyDecoders() > busy }) { _ = settled(quiet: 0.1) { Self.decoderThreads() } }
        decoder.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(10)), .success)
        XCTAssertEqual(events.all, [.failed(.cancelled, framesBefore: 0)])
    }

    /// Decoder workers running a job.
    private static func busyDecoders() -> Int {
        let counts = PreviewDecoder.workers.counts
        return counts.threads - counts.idle
    }

    /// Each decoder worker's scheduling state and CPU time ("123 S 4 1", from /proc): unchanged
    /// while every one of them waits.
    private static func decoderThreads() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.sorted().compactMap { task in
            let folder = "/proc/self/task/" + task
            guard (try? String(contentsOfFile: folder + "/comm", encoding: .utf8))?.hasPrefix("previewd.decode") == true,
                  let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8),
                  let name = stat.range(of: ") ", options: .backwards) else { return nil }
            let fields = stat[name.upperBound...].split(separator: " ")   // state first; utime and stime 12th and 13th
            return fields.count > 12 ? "\(task) \(fields[0]) \(fields[11]) \(fields[12])" : nil
        }
    }
}

/// Events collected from the decoder thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PreviewDecoder.Event] = []
    func append(_ e: PreviewDecoder.Event) { lock.lock(); events.append(e); lock.unlock() }
    var all: [PreviewDecoder.Event] { lock.lock(); defer { lock.unlock() }; return events }
}
