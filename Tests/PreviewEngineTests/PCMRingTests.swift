import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import Synchronization
import XCTest

/// `PCMRing`: the decoded audio between a decoder and the output, across threads.
final class PCMRingTests: XCTestCase {
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
        eventually(timeout: 30, interval: 0.0001) { () -> Bool in   // reads all there is, then looks again 0.1 ms later
            while true {
                let n = out.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: 512) }
                for i in 0..<n where out[2 * i] != Float(received + i) || out[2 * i + 1] != -Float(received + i) { ordered = false }
                received += n
                if n == 0 { return pcm.isDrained }
            }
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
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(5)), .success)
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
