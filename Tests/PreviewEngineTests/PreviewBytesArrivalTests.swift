import Foundation
@testable import PreviewEngine
import XCTest

/// `PreviewBytes.arrival(at:)`: the audio path's wait (previewd-web's `audio` verb) for the bytes at an
/// offset, answered before the whole preview is in as soon as the total size is known.
final class PreviewBytesArrivalTests: XCTestCase {
    /// A head (its Content-Range total known, its first bytes held) answers at once; the bytes past it
    /// once the widened download brings them, not the whole.
    func testAHeadIsAnsweredAtOnceAndTheRestAsItArrives() async {
        let bytes = PreviewBytes(initialCapacity: 64)
        bytes.expect(length: 1000, reserve: false)
        bytes.append(Data(repeating: 7, count: 100))
        bytes.hold()
        XCTAssertTrue(bytes.answerable(at: 0), "a held head with its total is answerable")
        await bytes.arrival(at: 0)
        XCTAssertEqual(bytes.knownLength, 1000, "the size is the head's total, not what is held")
        XCTAssertTrue(bytes.answerable(at: 1000), "at the end: nothing to wait for")

        XCTAssertFalse(bytes.answerable(at: 100), "the byte after the head is not there")
        bytes.widen()
        let waiter = Task { await bytes.arrival(at: 100); return bytes.receivedCount }
        bytes.append(Data(repeating: 8, count: 50))
        let received = await waiter.value
        XCTAssertEqual(received, 150, "answered when the next bytes came")
        XCTAssertFalse(bytes.isComplete, "before the whole preview")
    }

    /// No total known (no head, a download with no Content-Length): waits for the whole.
    func testWithoutATotalItWaitsForTheWhole() async {
        let bytes = PreviewBytes()
        bytes.append(Data(repeating: 1, count: 10))
        XCTAssertFalse(bytes.answerable(at: 0), "no size known: not answerable from a part")
        let waiter = Task { await bytes.arrival(at: 0); return bytes.isComplete }
        bytes.append(Data(repeating: 2, count: 10))
        XCTAssertFalse(bytes.answerable(at: 0))
        bytes.finish()
        let complete = await waiter.value
        XCTAssertTrue(complete)
        XCTAssertEqual(bytes.knownLength, 20)
    }

    /// A whole download whose Content-Length came: answerable from its first bytes.
    func testAnAnnouncedLengthIsEnough() {
        let bytes = PreviewBytes()
        bytes.expect(length: 30)
        XCTAssertFalse(bytes.answerable(at: 0), "no byte yet")
        bytes.append(Data(repeating: 3, count: 5))
        XCTAssertTrue(bytes.answerable(at: 4))
        XCTAssertFalse(bytes.answerable(at: 5))
    }

    /// A failed download ends the wait (the audio answer is an error, the page's body ends); so does
    /// the waiting task's cancellation, the download going on.
    func testAFailureOrACancellationEndsTheWait() async {
        let failing = PreviewBytes()
        failing.expect(length: 100)
        let waiter = Task { await failing.arrival(at: 0); return failing.error }
        failing.fail(.cancelled)
        let error = await waiter.value
        XCTAssertEqual(error, .cancelled)

        let slow = PreviewBytes()
        slow.expect(length: 100)
        let cancelled = Task { await slow.arrival(at: 0); return slow.answerable(at: 0) }
        cancelled.cancel()
        let answerable = await cancelled.value
        XCTAssertFalse(answerable, "the wait ended with no byte there")
        XCTAssertNil(slow.error, "the download goes on for others")
        slow.append(Data([1]))   // a waiter removed is not called again
        XCTAssertTrue(slow.answerable(at: 0))
    }
}
