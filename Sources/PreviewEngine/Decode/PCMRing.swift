import Glibc
import PreviewCore
import Synchronization

/// A fixed-capacity ring of interleaved float32 frames with one producer (a decoder thread) and one
/// consumer (the output sequencer, on the output's device thread). Allocated once; `read` never blocks, locks or
/// allocates (it posts the producer's semaphore at most once per batch). Both sides sleep until
/// signalled: a producer that is ahead waits for a quarter of the ring to be free (one wake-up per
/// batch, none at all while paused), and a consumer that found the ring empty can ask to be called
/// when frames arrive (`whenReadable`). The last `historyFrames` frames read are kept from the
/// producer, so the consumer can step back over what a device dropped unheard (`rewind`).
public final class PCMRing: @unchecked Sendable {   // the semaphore and `readable` are thread-safe; `appliedGain` the consumer's; the rest atomic
    /// The format of every frame in the buffer.
    public let format: PCMFormat
    /// Capacity in frames.
    public let capacityFrames: Int
    /// The load this buffer plays (the player's slot id): output events name the feed by it.
    public let id: UInt64
    /// Frames already read that the producer leaves alone, so `rewind` can step back over them.
    public let historyFrames: Int
    /// Frames the producer may be ahead of the consumer: the capacity less the history kept.
    private var aheadFrames: Int { capacityFrames - historyFrames }

    private let samples: UnsafeMutablePointer<Float>
    private let writtenFrames = Atomic<Int>(0)   // total frames ever written; producer stores
    private let readFrames = Atomic<Int>(0)      // total frames ever read; consumer stores
    private let finished = Atomic<Bool>(false)
    /// Frames the producer expects to write in all (the stream's stated length); 0: not known.
    private let expected = Atomic<Int>(0)
    /// When the first frame was written (monotonic ns; 0 before), for `StartTimeline`.
    private let firstWritten = Atomic<UInt64>(0)
    /// Free frames the waiting producer needs; 0 while it is not waiting.
    private let roomWanted = Atomic<Int>(0)
    /// Posted when the room the producer waits for appears, and on cancel.
    private let room: UnsafeMutablePointer<sem_t>
    /// Set while a consumer waits for frames; `readable` holds what to call then.
    private let readableWanted = Atomic<Bool>(false)
    private let readable = Locked<(@Sendable () -> Void)?>(nil)
    private let cancellation = CancellationFlag()
    /// The gain's bit pattern in the low 32 bits; `gainFixed` once the consumer has read with it.
    private let gain = Atomic<UInt64>(UInt64(Float(1).bitPattern))
    private static let gainFixed: UInt64 = 1 << 32
    /// The gain the consumer reads with now (nil before the first read, which starts at the gain:
    /// the output's onset ramp fades it in), the one it ramps to and its step per frame; the
    /// consumer's alone.
    private var appliedGain: Float?
    private var rampTarget: Float = 1
    private var rampStep: Float = 0
    /// Frames a smooth change of gain between two levels takes (30 ms): short enough to go unnoticed,
    /// long enough not to be heard as a step.
    private var rampFrames: Float { Float(format.frames(milliseconds: 30)) }

    /// A buffer holding up to `capacityFrames` frames of `format`, for the load `id`, of which the last
    /// `historyFrames` read stay there for `rewind`.
    public init(id: UInt64 = 0, format: PCMFormat = .preferred, capacityFrames: Int, historyFrames: Int = 0) {
        LiveObjects.pcmBuffers.created()
        precondition(capacityFrames > 0 && historyFrames >= 0 && historyFrames < capacityFrames)
        self.id = id
        self.historyFrames = historyFrames
        self.format = format
        self.capacityFrames = capacityFrames
        // Not zero-filled: only written frames are ever read, and a large ring's untouched pages
        // (a prefetched head uses a quarter of it) then stay out of resident memory.
        samples = .allocate(capacity: capacityFrames * format.channels)
        room = .allocate(capacity: 1)
        sem_init(room, 0, 0)
    }

    deinit {
        LiveObjects.pcmBuffers.destroyed()
        sem_destroy(room)
        room.deallocate()
        samples.deallocate()
    }

    /// The flag that ends the producer's work (skip, stop, shutdown); raise it with `cancel()`.
    public var cancellationFlag: CancellationFlag { cancellation }

    /// Ends the producer's wait for room at once; its `write` returns false.
    public func cancel() {
        cancellation.cancel()
        sem_post(room)   // a producer about to wait finds it posted
    }

    // MARK: Producer

    /// Writes all `frames` frames from `source`, waiting for room. False when cancelled first.
    public func write(_ source: UnsafePointer<Float>, frames: Int) -> Bool {
        let channels = format.channels
        var done = 0
        while done < frames {
            if cancellation.isCancelled { return false }
            let w = writtenFrames.load(ordering: .relaxed)
            let free = aheadFrames - (w - readFrames.load(ordering: .acquiring))
            if free <= 0 {   // below 0 just after a rewind
                waitForRoom()
                continue
            }
            let n = min(free, frames - done, capacityFrames - w % capacityFrames)
            (samples + (w % capacityFrames) * channels)
                .update(from: source + done * channels, count: n * channels)
            if w == 0 { firstWritten.store(MonotonicClock.nanoseconds(), ordering: .relaxed) }
            writtenFrames.store(w + n, ordering: .releasing)
            done += n
            callReadableHandler()
        }
        return true
    }

    /// Sleeps until a quarter of the ring is free (so a decoder that is ahead decodes in batches
    /// instead of waking once per AAC frame) or the buffer is cancelled.
    private func waitForRoom() {
        let wanted = max(1, aheadFrames / 4)
        roomWanted.store(wanted, ordering: .sequentiallyConsistent)
        // Announced before looking again: a consumer that read in between sees the announcement.
        let free = aheadFrames - (writtenFrames.load(ordering: .relaxed) - readFrames.load(ordering: .sequentiallyConsistent))
        if free < wanted {
            while sem_wait(room) != 0, errno == EINTR {}
        }
        roomWanted.store(0, ordering: .sequentiallyConsistent)
    }

    /// Calls the consumer's `whenReadable` handler, if one waits.
    private func callReadableHandler() {
        guard readableWanted.load(ordering: .sequentiallyConsistent),
              readableWanted.exchange(false, ordering: .sequentiallyConsistent) else { return }
        readable.withLock { handler -> (@Sendable () -> Void)? in
            defer { handler = nil }
            return handler
        }?()
    }

    /// Says how many frames the producer will write in all, once it knows (a crossfade starts that
    /// many frames before the end, long before the producer finishes).
    public func expect(frames: Int) {
        expected.store(max(0, frames), ordering: .releasing)
    }

    /// Says no more frames will come; once drained, the consumer sees `isDrained`.
    public func finish() {
        finished.store(true, ordering: .releasing)
        callReadableHandler()   // a waiting consumer learns the buffer is drained
    }

    // MARK: Gain

    /// Sets the linear gain every frame is multiplied by as it is read (the track's loudness
    /// normalisation). The consumer's first read fixes it, so a listener never hears it jump within
    /// a track: returns false, changing nothing, once that has happened.
    @discardableResult
    public func setGain(_ linear: Float) -> Bool {
        var current = gain.load(ordering: .acquiring)
        while current & Self.gainFixed == 0 {
            let (exchanged, original) = gain.compareExchange(expected: current, desired: UInt64(linear.bitPattern),
                                                             ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Moves the gain to `linear` smoothly (over 30 ms of frames), whenever it is called; before
    /// the first read, the first frame is read at it (the output's short onset ramp fades it in).
    /// For a provisional gain (a cold start does not wait for its loudness) and its correction.
    public func rampGain(to linear: Float) {
        var current = gain.load(ordering: .acquiring)
        while true {
            let desired = (current & Self.gainFixed) | UInt64(linear.bitPattern)
            let (exchanged, original) = gain.compareExchange(expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Applies the gain to `frames` frames at `samples` as they are read, ramping where asked.
    private func applyGain(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        let word = appliedGain == nil ? gain.bitwiseOr(Self.gainFixed, ordering: .acquiringAndReleasing).oldValue
                                      : gain.load(ordering: .acquiring)
        let target = Float(bitPattern: UInt32(truncatingIfNeeded: word))
        var level = appliedGain ?? target
        if target != rampTarget || appliedGain == nil {
            rampTarget = target
            rampStep = (target - level) / rampFrames
        }
        let channels = format.channels
        var frame = 0
        while frame < frames, level != target {   // the ramp, frame by frame
            level += rampStep
            if (rampStep > 0 && level > target) || (rampStep < 0 && level < target) || rampStep == 0 { level = target }
            for c in 0..<channels { samples[frame * channels + c] *= level }
            frame += 1
        }
        if level != 1 { for i in frame * channels..<frames * channels { samples[i] *= level } }
        appliedGain = level
    }

    // MARK: Consumer

    /// Copies up to `frames` frames into `destination`, times the gain; returns how many. Never blocks.
    public func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let channels = format.channels
        var done = 0
        while done < frames {
            let r = readFrames.load(ordering: .relaxed)
            let available = writtenFrames.load(ordering: .acquiring) - r
            if available == 0 { break }
            let n = min(available, frames - done, capacityFrames - r % capacityFrames)
            let target = destination + done * channels
            target.update(from: samples + (r % capacityFrames) * channels, count: n * channels)
            applyGain(target, frames: n)
            readFrames.store(r + n, ordering: .sequentiallyConsistent)
            done += n
        }
        // The producer waits for a quarter of the ring: one post per batch, none per callback.
        let wanted = roomWanted.load(ordering: .sequentiallyConsistent)
        if done > 0, wanted > 0, aheadFrames - availableFrames >= wanted,
           roomWanted.compareExchange(expected: wanted, desired: 0, ordering: .sequentiallyConsistent).exchanged {
            sem_post(room)   // never blocks; a futex wake only when the producer sleeps
        }
        return done
    }

    /// Steps the consumer back over up to `frames` frames it read (a device dropped them unheard), as
    /// far as the history kept allows; returns how many. They are read again, with the gain then.
    public func rewind(_ frames: Int) -> Int {
        let r = readFrames.load(ordering: .relaxed)
        // Not below what the producer may overwrite: it may still go by a read position up to `r`.
        let floor = max(0, r - historyFrames, writtenFrames.load(ordering: .acquiring) - capacityFrames)
        let back = max(0, min(frames, r - floor))
        if back > 0 { readFrames.store(r - back, ordering: .sequentiallyConsistent) }
        return back
    }

    /// Calls `handler` once (on the producer's thread) when frames arrive or the producer
    /// finishes; for a consumer that found nothing to read.
    /// Returns false, without keeping `handler`, when there is something to read or the producer
    /// has finished: read again now.
    public func whenReadable(_ handler: @escaping @Sendable () -> Void) -> Bool {
        readable.withLock { $0 = handler }
        readableWanted.store(true, ordering: .sequentiallyConsistent)
        // Looked at after announcing, so a write in between is seen here or calls the handler.
        guard availableFrames == 0 && !isFinished else {
            if readableWanted.exchange(false, ordering: .sequentiallyConsistent) { readable.withLock { $0 = nil } }
            return false
        }
        return true
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

    /// When the first frame was written (CLOCK_MONOTONIC, ns); 0 before.
    public var firstWrittenAt: UInt64 { firstWritten.load(ordering: .relaxed) }

    /// Frames in all, once known: what was written when the producer finished, else what it expects.
    public var totalFrames: Int? {
        if isFinished { return writtenFrames.load(ordering: .acquiring) }
        let stated = expected.load(ordering: .acquiring)
        return stated > 0 ? stated : nil
    }

    /// Frames the consumer has still to read before the end, once the end is known.
    public var remainingFrames: Int? {
        totalFrames.map { max(0, $0 - readFrames.load(ordering: .acquiring)) }
    }

    /// True when the producer said no more frames will come.
    public var isFinished: Bool { finished.load(ordering: .acquiring) }
}
