import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

final class LoudnessTests: XCTestCase {
    private func fixture(_ name: String, prefix fraction: Double = 1) throws -> PreviewBytes {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("previews/\(name).m4a"))
        let bytes = PreviewBytes()
        bytes.expect(length: data.count)
        bytes.append(data.prefix(Int(Double(data.count) * fraction)))
        if fraction >= 1 { bytes.finish() }
        return bytes
    }

    /// The two level fixtures are the same tone shape 24 dB apart; ffmpeg's own ebur128 filter
    /// says -9.7 and -33.6 LUFS, -8.8 and -32.6 dBTP.
    func testTheWholeClipIsMeasuredAsFFmpegMeasuresIt() throws {
        let loud = try XCTUnwrap(LoudnessScan.whole(try fixture("level-550-loud"), format: .preferred, cancellation: CancellationFlag()))
        let quiet = try XCTUnwrap(LoudnessScan.whole(try fixture("level-660-quiet"), format: .preferred, cancellation: CancellationFlag()))
        XCTAssertEqual(loud.integratedLUFS, -9.7, accuracy: 0.3)
        XCTAssertEqual(loud.peakDB, -8.8, accuracy: 0.3)
        XCTAssertEqual(quiet.integratedLUFS, -33.6, accuracy: 0.3)
        XCTAssertEqual(loud.integratedLUFS - quiet.integratedLUFS, 24, accuracy: 0.2)
        XCTAssertTrue(loud.isWholeTrack)
        let peaky = try XCTUnwrap(LoudnessScan.whole(try fixture("level-770-peaky"), format: .preferred, cancellation: CancellationFlag()))
        XCTAssertGreaterThan(peaky.peakDB - peaky.integratedLUFS, 15, "short bursts: the peak far above the loudness")
    }

    /// A cold start's estimate reads only the bytes that have arrived and never waits for more.
    func testTheEstimateReadsWhatHasArrivedWithoutWaiting() throws {
        let half = try fixture("level-550-loud", prefix: 0.5)   // not finished: a read past it would wait
        let result = Locked<Loudness?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.withLock { $0 = LoudnessScan.estimate(half, format: .preferred) }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(30)), .success, "the estimate waited for bytes that had not arrived")
        let estimate = try XCTUnwrap(result.withLock { $0 })
        XCTAssertFalse(estimate.isWholeTrack)
        XCTAssertEqual(estimate.integratedLUFS, -9.7, accuracy: 0.3)
        XCTAssertNil(LoudnessScan.estimate(try fixture("level-550-loud", prefix: 0.05), format: .preferred),
                     "well under a second of audio is no estimate")
    }

    /// The gain is the consumer's from its first read on: set before, it applies; set after, it is refused.
    func testTheGainIsFixedByTheFirstRead() {
        let pcm = PCMRing(capacityFrames: 1_000)
        let ones = [Float](repeating: 0.5, count: 200)
        _ = ones.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: 100) }
        XCTAssertTrue(pcm.setGain(0.5))
        XCTAssertTrue(pcm.setGain(0.25), "changeable until the output reads")
        var out = [Float](repeating: 0, count: 100)
        _ = out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: 50) }
        XCTAssertEqual(out[0], 0.125)
        XCTAssertFalse(pcm.setGain(4), "refused once read")
        _ = out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: 50) }
        XCTAssertEqual(out[99], 0.125, "the same gain to the end of the track")
    }

    /// A cold start plays at once: its provisional gain fades in from silence, and the gain its
    /// first seconds call for (set a moment later, after frames were read) is reached smoothly,
    /// never with a jump.
    func testARampedGainStartsAtOnceAndMovesSmoothly() {
        let format = PCMFormat.preferred
        let ramp = format.frames(milliseconds: 30)
        let pcm = PCMRing(format: format, capacityFrames: ramp * 8)
        let ones = [Float](repeating: 1, count: ramp * 8 * format.channels)
        _ = ones.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: ramp * 8) }
        pcm.rampGain(to: 0.5)   // the provisional gain
        var out = [Float](repeating: 0, count: ramp * 4 * format.channels)
        XCTAssertEqual(out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: ramp / 2) }, ramp / 2, "no wait")
        XCTAssertEqual(out[0], 0.5, "the first frame is at the provisional gain (the output's onset ramp fades it in)")
        pcm.rampGain(to: 0.25)   // the estimate: down, smoothly
        _ = out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: ramp * 2) }
        let levels = stride(from: 0, to: ramp * 2 * format.channels, by: format.channels).map { out[$0] }
        let largestStep = zip(levels, levels.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        XCTAssertLessThan(largestStep, 0.001, "no jump")
        XCTAssertEqual(levels.last!, 0.25, accuracy: 0.0001, "the corrected gain reached")
        XCTAssertFalse(pcm.setGain(1), "a gain that is not ramped cannot change once heard")
    }

    /// With a disk cache, measurements outlive the process; damaged lines are skipped.
    func testMeasurementsAreKeptInTheDiskCache() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loudness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try PreviewCache(directory: folder, maxBytes: 1 << 20)
        let first = LoudnessStore(cache: cache)
        first.record(Loudness(integratedLUFS: -9.5, peakDB: -1.25, isWholeTrack: true), for: "1001")
        first.record(Loudness(integratedLUFS: -20, peakDB: -3, isWholeTrack: true), for: LoudnessStore.key(trackId: nil, url: "http://x/a.m4a"))
        cache.flush()
        let file = folder.appendingPathComponent(LoudnessStore.fileName)
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        handle.write(Data("garbage\nx\tnan\t1\n1002\t-inf\t0\n".utf8))
        try handle.close()

        let second = LoudnessStore(cache: cache)
        XCTAssertEqual(second["1001"], Loudness(integratedLUFS: -9.5, peakDB: -1.25, isWholeTrack: true))
        XCTAssertEqual(second[LoudnessStore.key(trackId: nil, url: "http://x/a.m4a")]?.integratedLUFS, -20)
        XCTAssertNil(second["1002"])
        XCTAssertNil(second["x"])
    }
}
