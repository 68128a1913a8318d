import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import Synchronization
import XCTest

/// `PreviewBytes`: a preview's bytes in bounded memory, read by one decoder.
final class PreviewBytesTests: XCTestCase {
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
        XCTAssertEqual(got.wait(timeout: .now() + Patience.seconds(5)), .success)
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
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(5)), .success)
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
}

final class OutcomeBox: @unchecked Sendable {
    var outcome: PreviewBytes.ReadOutcome?
    var data: [UInt8] = []
    var flag: Bool?
}
