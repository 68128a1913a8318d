import Foundation
import Glibc
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// A real `StreamOutput` into a FIFO, through the sequencer: the same hand-over and drain as the
/// sequencer's own tests, counted in the frames the FIFO's reader gets (never in time).
final class StreamOutputTests: XCTestCase {
    func testAnEnqueuedFeedFollowsTheDrainedOneInTheFIFOWithNoGap() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previewd-stream-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)   // first, so the output's open finds a reader
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }

        var configuration = StreamOutput.Configuration()
        configuration.latencyMs = 40
        let sequencer = OutputSequencer(output: StreamOutput(destination: .fifo(path: path), configuration: configuration))
        defer { sequencer.close() }
        let events = Locked<[OutputEvent]>([])
        let drained = expectation(description: "the second feed drained")
        sequencer.setEventHandler { event in
            events.withLock { $0.append(event) }
            if event == .drained(2) { drained.fulfill() }
        }
        let frames = 2_400   // 50 ms each
        sequencer.play(level(0.5, frames: frames, id: 1, sequencer.format), paused: false)
        sequencer.enqueue(level(-0.5, frames: frames, id: 2, sequencer.format))

        let left = readLeftChannel(reader, frames: 2 * frames)
        wait(for: [drained], timeout: Patience.seconds(10))
        XCTAssertEqual(events.withLock { $0 }, [.drained(1), .started(2), .drained(2)])
        XCTAssertEqual(left.prefix(frames).filter { $0 <= 0 }.count, 0, "the first feed's frames, all of them")
        XCTAssertEqual(left.dropFirst(frames).filter { $0 >= 0 }.count, 0, "then the second's, with no silence between")
    }

    /// A finished feed of `frames` frames in `format` at a constant `value`.
    private func level(_ value: Float, frames: Int, id: UInt64, _ format: PCMFormat) -> PCMRing {
        let pcm = PCMRing(id: id, format: format, capacityFrames: frames)
        let samples = [Float](repeating: value, count: frames * format.channels)
        XCTAssertTrue(samples.withUnsafeBufferPointer { pcm.write($0.baseAddress!, frames: frames) })
        pcm.finish()
        return pcm
    }

    /// Reads `frames` s16le stereo frames from the FIFO, waiting in `poll`; returns the left samples.
    private func readLeftChannel(_ fd: Int32, frames: Int) -> [Int16] {
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < frames * 4 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) > 0 else { XCTFail("no frames within 10 s"); break }
            let n = read(fd, &chunk, min(chunk.count, frames * 4 - bytes.count))
            if n > 0 { bytes += chunk.prefix(n) } else if n == 0 { XCTFail("the output closed the FIFO"); break }
        }
        return stride(from: 0, to: bytes.count, by: 4).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}
