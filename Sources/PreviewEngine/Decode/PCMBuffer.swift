import Glibc
import PreviewCore
import Synchronization

/// A fixed-capacity ring of interleaved float32 frames with one producer (a decoder thread) and one
/// consumer (the audio output's write callback). Allocated once; the consumer side never blocks,
/// locks or allocates. The producer waits for room in short sleeps it can cancel.
public final class PCMBuffer: @unchecked Sendable {
    /// The format of every frame in the buffer.
    public let format: PCMFormat
    /// Capacity in frames.
    public let capacityFrames: Int

    private let samples: UnsafeMutablePointer<Float>
    private let writtenFrames = Atomic<Int>(0)   // total frames ever written; producer stores
    private let readFrames = Atomic<Int>(0)      // total frames ever read; consumer stores
    private let finished = Atomic<Bool>(false)
    private var waitingForRoom = false   // producer's thread only
    /// Raised to end a producer's wait for room (skip, stop, shutdown).
    public let cancellation = CancellationFlag()

    /// A buffer holding up to `capacityFrames` frames of `format`.
    public init(format: PCMFormat = .engine, capacityFrames: Int) {
        precondition(capacityFrames > 0)
        self.format = format
        self.capacityFrames = capacityFrames
        // Not zero-filled: only written frames are ever read, and a large ring's untouched pages
        // (a prefetched head uses a quarter of it) then stay out of resident memory.
        samples = .allocate(capacity: capacityFrames * format.channels)
    }

    deinit { samples.deallocate() }

    // MARK: Producer

    /// Writes all `frames` frames from `source`, waiting for room. False when cancelled first.
    public func write(_ source: UnsafePointer<Float>, frames: Int) -> Bool {
        let channels = format.channels
        var done = 0
        var idleWaitUs: UInt32 = 0
        while done < frames {
            let w = writtenFrames.load(ordering: .relaxed)
            let free = capacityFrames - (w - readFrames.load(ordering: .acquiring))
            // Once the ring is full, wait until a quarter of it is free before writing again, so a
            // decoder that is ahead decodes in batches instead of waking once per AAC frame.
            if free == 0 || (waitingForRoom && free < capacityFrames / 4) {
                if cancellation.isCancelled { return false }
                waitingForRoom = true
                // No lock to wait on (the consumer is the audio callback, which must not signal):
                // sleep about as long as the consumer needs to free that room, at most 50 ms at a time.
                let wanted = capacityFrames / 4 - free
                let needed = UInt32(min(50_000, max(2_000, wanted * 1_000_000 / format.sampleRate)))
                idleWaitUs = idleWaitUs == 0 ? needed : min(50_000, max(needed, idleWaitUs * 2))
                usleep(idleWaitUs)
                continue
            }
            waitingForRoom = false
            idleWaitUs = 0
            let n = min(free, frames - done, capacityFrames - w % capacityFrames)
            (samples + (w % capacityFrames) * channels)
                .update(from: source + done * channels, count: n * channels)
            writtenFrames.store(w + n, ordering: .releasing)
            done += n
        }
        return true
    }

    /// Says no more frames will come; once drained, the consumer sees `isDrained`.
    public func finish() { finished.store(true, ordering: .releasing) }

    // MARK: Consumer

    /// Copies up to `frames` frames into `destination`; returns how many. Never blocks.
    public func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let channels = format.channels
        var done = 0
        while done < frames {
            let r = readFrames.load(ordering: .relaxed)
            let available = writtenFrames.load(ordering: .acquiring) - r
            if available == 0 { break }
            let n = min(available, frames - done, capacityFrames - r % capacityFrames)
            (destination + done * channels).update(from: samples + (r % capacityFrames) * channels, count: n * channels)
            readFrames.store(r + n, ordering: .releasing)
            done += n
        }
        return done
    }

    /// Frames ready to read now.
    public var availableFrames: Int {
        writtenFrames.load(ordering: .acquiring) - readFrames.load(ordering: .acquiring)
    }

    /// Total frames handed to the consumer since the buffer was made.
    public var consumedFrames: Int { readFrames.load(ordering: .acquiring) }

    /// True when the producer finished and every frame was read.
    public var isDrained: Bool {
        finished.load(ordering: .acquiring) && availableFrames == 0
    }

    /// True when the producer said no more frames will come.
    public var isFinished: Bool { finished.load(ordering: .acquiring) }
}
