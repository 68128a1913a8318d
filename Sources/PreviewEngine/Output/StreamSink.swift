import CPreviewLinux
import Glibc
import PreviewCore

/// Plays PCM into a byte stream that has no clock of its own: a snapserver's `tcp` source or a FIFO
/// (`previewd --output snapcast://…` or `pipe:…`), as signed 16-bit little-endian 48 kHz stereo.
///
/// One thread, "previewd.output", owns the descriptor and sleeps in `poll` on it and an eventfd. While
/// a track plays it wakes about every `(highWater − lowWater)` to top the stream up to `highWater`
/// ahead of real time (`PacingClock`): never faster than real time, so the server's buffer and not
/// previewd decides the latency, and never later than the reader needs. Paused or idle, it writes
/// nothing and does not wake (the server fills silence). The transport keeps PulseSink's meaning:
/// a skip drops what was not yet written, an enqueued feed follows a drained one in the same stream
/// (gapless), and a lost reader is reported (`.lost`), tried again with growing waits and reported
/// back (`.restored`). Volume and mute are applied to the samples (`SoftwareVolume`).
///
/// Every field below `lock` is touched only holding it; the thread holds it except while it waits.
public final class StreamSink: AudioSink, @unchecked Sendable {
    /// How the stream is paced and reconnected.
    public struct Configuration: Sendable {
        /// Audio handed over ahead of real time is kept between a quarter and three quarters of this.
        public var latencyMs = 100
        /// How long a connection attempt may take.
        public var connectTimeoutSeconds = 5.0
        /// Waits between reconnection attempts; the last one repeats.
        public var reconnectBackoff: [Double] = [0.2, 0.5, 1, 2, 4]

        /// The defaults.
        public init() {}
    }

    public let format = PCMFormat.engine
    let destination: StreamDestination
    let configuration: Configuration
    let lock = Lock()
    let wakeFD: Int32
    /// Bytes of one s16 frame.
    let wireFrameBytes: Int

    enum Link { case idle, connecting, ready(Int32), waitingToRetry(UInt64) }
    var link = Link.idle
    var wanted = false                        // a feed was played once: connect and stay connected
    var failedAttempts = 0
    var lossReported = false
    var lostReason: String?
    var closed = false
    var clock: PacingClock
    var feed: PCMBuffer?
    var queued: PCMBuffer?
    var paused = true
    var feedFramesTaken = 0
    var feedStartedAt: UInt64?
    var drainReported = false
    var starving = false
    var volumePercent = 100
    var muted = false
    /// The gain the last frames were written with (a change ramps from it).
    var appliedGain: Float = 1
    var eventHandler: (@Sendable (OutputEvent) -> Void)?
    /// Encoded bytes not yet accepted by the descriptor: `outgoing[pendingStart..<pendingEnd]`.
    let outgoing: UnsafeMutableRawBufferPointer
    var pendingStart = 0
    var pendingEnd = 0
    /// Bytes accepted since connecting (whole frames of it advance the clock).
    var bytesWritten = 0
    /// Float frames read from a feed before encoding.
    let scratch: UnsafeMutablePointer<Float>
    let scratchFrames: Int

    /// A sink for `destination` that connects on first use.
    init(destination: StreamDestination, configuration: Configuration = Configuration()) {
        self.destination = destination
        self.configuration = configuration
        wakeFD = cpl_eventfd()
        wireFrameBytes = format.channels * MemoryLayout<Int16>.size
        clock = PacingClock(sampleRate: format.sampleRate, lowWaterMs: configuration.latencyMs / 4,
                            highWaterMs: configuration.latencyMs * 3 / 4)
        scratchFrames = clock.highWater
        scratch = .allocate(capacity: scratchFrames * format.channels)
        outgoing = .allocate(byteCount: scratchFrames * wireFrameBytes, alignment: 8)
        startThread(named: "previewd.output") { [self] in serve() }
    }

    /// A sink for an `--output` other than pulse.
    public convenience init?(choice: OutputChoice, configuration: Configuration = Configuration()) {
        switch choice {
        case .pulse: return nil
        case .snapcast(let host, let port): self.init(destination: .snapcast(host: host, port: port), configuration: configuration)
        case .pipe(let path): self.init(destination: .fifo(path: path), configuration: configuration)
        }
    }

    /// Why `choice` cannot work at all (a FIFO path that is a regular file); nil when it may.
    public static func problem(with choice: OutputChoice) -> String? {
        if case .pipe(let path) = choice { return StreamDestination.problem(withFIFO: path) }
        return nil
    }

    deinit {
        scratch.deallocate()
        outgoing.deallocate()
        Glibc.close(wakeFD)
    }

    public func setEventHandler(_ handler: @escaping @Sendable (OutputEvent) -> Void) {
        lock.withLock { eventHandler = handler }
    }

    public func play(_ next: PCMBuffer, paused: Bool) {
        changing {
            if feed !== next {
                // A skip: what was not yet handed over is dropped. After a feed that drained by itself,
                // nothing of it is left to drop: the next follows with no gap.
                if !(feed?.isDrained ?? true) { dropPendingLocked() }
                startFeedLocked(next)
            }
            if queued === next { queued = nil }
            self.paused = paused
            wanted = true
        }
    }

    public func enqueue(_ next: PCMBuffer?) {
        changing { queued = next }
    }

    public func pause() {
        changing { paused = true }
    }

    public func resume() {
        changing { paused = false }
    }

    public func stop() {
        changing { stopLocked() }
    }

    public func fadeOutAndStop(milliseconds: Int) {
        lock.withLock {
            if case .ready(let fd) = link, !paused, let current = feed {
                // The last frames ramp down to silence: ending mid-waveform at full level would click.
                writePendingLocked(fd)
                if pendingStart == pendingEnd {
                    let frames = current.read(into: scratch, frames: min(scratchFrames, format.frames(milliseconds: milliseconds)))
                    encodeLocked(frames: frames, gain: 0)
                    writePendingLocked(fd)
                }
            }
            stopLocked()
        }
    }

    public var playedFrames: Int {
        lock.withLock { heardFramesLocked() }
    }

    public var currentFeed: ObjectIdentifier? {
        lock.withLock { feed.map(ObjectIdentifier.init) }
    }

    public var currentFeedStartedAt: UInt64? {
        lock.withLock { feedFramesTaken > 0 ? feedStartedAt : nil }
    }

    public var statusText: String {
        lock.withLock { lostReason ?? "ok" }
    }

    public func setVolume(_ percent: Int, muted: Bool) {
        changing {
            volumePercent = min(100, max(0, percent))
            self.muted = muted
        }
    }

    /// Snapcast and a FIFO carry no stream metadata.
    public func setMetadata(title: String?, artist: String?) {}

    public func close() {
        changing { closed = true }
    }

    // MARK: Shared by the callers and the thread (lock held)

    /// Changes state holding the lock, then wakes the thread to act on it.
    private func changing(_ body: () -> Void) {
        lock.withLock(body)
        cpl_eventfd_signal(wakeFD)
    }

    func startFeedLocked(_ next: PCMBuffer) {
        feed = next
        feedFramesTaken = 0
        feedStartedAt = nil
        drainReported = false
        starving = false
    }

    func stopLocked() {
        if !(feed?.isDrained ?? true) { dropPendingLocked() }
        feed = nil
        queued = nil
        feedFramesTaken = 0
        paused = true
    }

    /// Forgets encoded bytes not yet written, except the rest of a frame partly written (the reader
    /// must stay aligned on frames).
    func dropPendingLocked() {
        let partial = bytesWritten % wireFrameBytes
        pendingEnd = min(pendingEnd, pendingStart + (partial == 0 ? 0 : wireFrameBytes - partial))
    }

    /// Frames of the current feed heard: taken from it, minus those still waiting here, minus those
    /// handed over ahead of real time.
    func heardFramesLocked() -> Int {
        guard feed != nil else { return 0 }
        let waiting = (pendingEnd - pendingStart + wireFrameBytes - 1) / wireFrameBytes
        return max(0, feedFramesTaken - waiting - clock.ahead(at: MonotonicClock.nanoseconds()))
    }
}
