import Foundation
import PreviewCore
@testable import PreviewEngine
import Synchronization
import XCTest

final class BufferTests: XCTestCase {
    func testPreviewBytesReadBlocksUntilBytesArrive() {
        let bytes = PreviewBytes()
        let got = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        Thread {
            var buffer = [UInt8](repeating: 0, count: 10)
            box.outcome = buffer.withUnsafeMutableBytes { bytes.read(into: $0.baseAddress!, at: 3, maxLength: 10) }
            box.data = buffer
            got.signal()
        }.start()
        XCTAssertEqual(got.wait(timeout: .now() + 0.2), .timedOut, "read returned before its bytes came")
        bytes.append(Data([0, 1, 2, 3, 4, 5]))
        XCTAssertEqual(got.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(box.outcome, .bytes(3))
        XCTAssertEqual(Array(box.data.prefix(3)), [3, 4, 5])
    }

    func testPreviewBytesEndsFailsAndCancels() {
        var scratch = [UInt8](repeating: 0, count: 4)
        let complete = PreviewBytes()
        complete.expect(length: 2)
        complete.append(Data([1, 2]))
        complete.finish()
        XCTAssertEqual(scratch.withUnsafeMutableBytes { complete.read(into: $0.baseAddress!, at: 2, maxLength: 4) }, .end)
        XCTAssertEqual(complete.knownLength, 2)

        let short = PreviewBytes()
        short.expect(length: 10)
        short.append(Data([1]))
        short.finish()
        XCTAssertEqual(short.error, .truncated(received: 1, expected: 10))

        let bounded = PreviewBytes(limit: 4)
        XCTAssertFalse(bounded.append(Data(repeating: 0, count: 5)))
        XCTAssertEqual(bounded.error, .tooLarge(limit: 4))
        let announcedTooBig = PreviewBytes(limit: 4)
        announcedTooBig.expect(length: 5)
        XCTAssertEqual(announcedTooBig.error, .tooLarge(limit: 4))

        let cancelled = PreviewBytes()
        let done = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        Thread {
            var b = [UInt8](repeating: 0, count: 4)
            box.outcome = b.withUnsafeMutableBytes { cancelled.read(into: $0.baseAddress!, at: 0, maxLength: 4) }
            done.signal()
        }.start()
        cancelled.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(box.outcome, .failed(.cancelled))
    }

    func testPreviewBytesGrowsKeepingEveryByte() {
        let bytes = PreviewBytes(limit: 1 << 20, initialCapacity: 16)
        var expected = [UInt8]()
        for i in 0..<1000 {
            let piece = (0..<97).map { UInt8(truncatingIfNeeded: i &* 31 &+ $0) }
            expected += piece
            XCTAssertTrue(bytes.append(Data(piece)))
        }
        bytes.finish()
        var out = [UInt8](repeating: 0, count: expected.count)
        var offset = 0
        while case .bytes(let n) = out.withUnsafeMutableBytes({ bytes.read(into: $0.baseAddress! + offset, at: offset, maxLength: 5000) }) {
            offset += n
        }
        XCTAssertEqual(out, expected)
    }

    func testPCMRingCarriesEveryFrameInOrderAcrossThreads() {
        let pcm = PCMRing(format: PCMFormat(sampleRate: 48_000, channels: 2), capacityFrames: 1000)
        let total = 200_000
        Thread {
            var chunk = [Float](repeating: 0, count: 2 * 733)
            var next = 0
            while next < total {
                let n = min(733, total - next)
                for i in 0..<n { chunk[2 * i] = Float(next + i); chunk[2 * i + 1] = -Float(next + i) }
                _ = chunk.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: n) }
                next += n
            }
            pcm.finish()
        }.start()
        var received = 0
        var ordered = true
        var out = [Float](repeating: 0, count: 2 * 512)
        let deadline = Date(timeIntervalSinceNow: 30)
        while !pcm.isDrained && Date() < deadline {
            let n = out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: 512) }
            for i in 0..<n where out[2 * i] != Float(received + i) || out[2 * i + 1] != -Float(received + i) { ordered = false }
            received += n
            if n == 0 { usleep(100) }
        }
        XCTAssertTrue(ordered)
        XCTAssertEqual(received, total)
        XCTAssertEqual(pcm.consumedFrames, total)
    }

    func testPCMRingProducerWaitEndsOnCancel() {
        let pcm = PCMRing(capacityFrames: 10)
        let done = DispatchSemaphore(value: 0)
        let result = OutcomeBox()
        Thread {
            let frames = [Float](repeating: 1, count: 2 * 100)
            result.flag = frames.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: 100) }
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 0.2), .timedOut, "the producer should wait for room")
        pcm.cancel()
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(result.flag, false)
    }

    func testPCMRingCallsAWaitingConsumerOnceWhenFramesArriveOrItFinishes() {
        let pcm = PCMRing(capacityFrames: 16)
        let calls = Mutex(0)
        XCTAssertTrue(pcm.whenReadable { calls.withLock { $0 += 1 } }, "empty: the handler waits")
        let frames = [Float](repeating: 0.5, count: 2 * 4)
        frames.withUnsafeBufferPointer { _ = pcm.write($0.baseAddress!, frames: 4) }
        frames.withUnsafeBufferPointer { _ = pcm.write($0.baseAddress!, frames: 4) }
        XCTAssertEqual(calls.withLock { $0 }, 1, "called once, by the first write")
        XCTAssertFalse(pcm.whenReadable { calls.withLock { $0 += 10 } }, "frames are there: read now")
        var out = [Float](repeating: 0, count: 2 * 16)
        XCTAssertEqual(out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: 16) }, 8)
        XCTAssertTrue(pcm.whenReadable { calls.withLock { $0 += 100 } })
        pcm.finish()
        XCTAssertEqual(calls.withLock { $0 }, 101, "finishing calls the waiting consumer")
        XCTAssertFalse(pcm.whenReadable { calls.withLock { $0 += 1000 } }, "finished: nothing to wait for")
        XCTAssertEqual(calls.withLock { $0 }, 101)
    }
}

final class OutcomeBox: @unchecked Sendable {
    var outcome: PreviewBytes.ReadOutcome?
    var data: [UInt8] = []
    var flag: Bool?
}
