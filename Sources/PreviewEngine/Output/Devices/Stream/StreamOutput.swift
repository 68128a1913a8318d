import CPreviewLinux
import Glibc
import PreviewCore

/// Plays PCM into a byte stream that has no clock of its own: a snapserver's `tcp` source or a FIFO
/// (`previewd --output snapcast://…` or `pipe:…`), as signed 16-bit little-endian 48 kHz stereo.
///
/// One thread, "previewd.output", owns the descriptor and sleeps in `poll` on it and an eventfd. While
/// a track plays it wakes about every `(highWater − lowWater)` to pull frames from the
/// `OutputSequencer` and top the stream up to `highWater` ahead of real time (`PacingClock`): never
/// faster than real time, so the server's buffer and not previewd decides the latency, and never
/// later than the reader needs. Paused or idle, it writes nothing and does not wake (the server fills
/// silence). Cancel drops what was not yet written; a lost reader is reported to the sequencer, tried
/// again on the shared back-off (`ReconnectBackoff`) and reported back. Volume and mute are applied to the samples
/// (`SoftwareVolume`).
///
/// Every field below `lock` is touched only holding it; the thread holds it except while it waits.
/// It is the output's lock (`withLock`): the sequencer's state is guarded by it too.
public final class StreamOutput: AudioOutput, @unchecked Sendable {
    /// How the stream is paced and reconnected.
    public struct Configuration: Sendable {
        /// Audio handed over ahead of real time is kept between a quarter and three quarters of this.
        public var latencyMs = 100
        /// How long a connection attempt may take.
        public var connectTimeoutSeconds = 5.0
        /// Waits between reconnection attempts.
        public var reconnectBackoff = ReconnectBackoff()

        /// The defaults.
        public init() {}
    }

    /// What a snapserver's source is configured for (`sampleformat=48000:16:2`, its default).
    public let format = PCMFormat(sampleRate: 48_000, channels: 2)
    /// How the samples travel.
    static let wire = SampleEncoding.s16
    let destination: StreamDestination
    let configuration: Configuration
    let lock = Lock()
    let wakeFD: Int32
    /// Bytes of one frame on the wire.
    let wireFrameBytes: Int

    enum Link { case idle, connecting, ready(Int32), waitingToRetry(UInt64) }
    var link = Link.idle
    weak var source: (any OutputSource)?
    var wanted = false                        // kicked once: connect and stay connected
    var backoff: ReconnectBackoff
    var closed = false
    var clock: PacingClock
    var paused = true
    var volumePercent = 100
    var muted = false
    /// The gain the last frames were written with (a change ramps from it).
    var appliedGain: Float = 1
    /// Encoded bytes not yet accepted by the descriptor: `outgoing[pendingStart..<pendingEnd]`.
    let outgoing: UnsafeMutableRawBufferPointer
    var pendingStart = 0
    var pendingEnd = 0
    /// Bytes accepted since connecting (whole frames of it advance the clock).
    var bytesWritten = 0
    /// Float frames pulled before encoding.
    let scratch: UnsafeMutablePointer<Float>
    let scratchFrames: Int

    /// An output for `destination` that connects on first use.
    init(destination: StreamDestination, configuration: Configuration = Configuration()) {
        self.destination = destination
        self.configuration = configuration
        backoff = configuration.reconnectBackoff
        wakeFD = cpl_eventfd()
        wireFrameBytes = format.channels * Self.wire.bytesPerSample
        clock = PacingClock(sampleRate: format.sampleRate, lowWaterMs: configuration.latencyMs / 4,
                            highWaterMs: configuration.latencyMs * 3 / 4)
        scratchFrames = clock.highWater
        scratch = .allocate(capacity: scratchFrames * format.channels)
        outgoing = .allocate(byteCount: scratchFrames * wireFrameBytes, alignment: 8)
        startThread(named: "previewd.output") { [self] in serve() }
    }

    deinit {
        scratch.deallocate()
        outgoing.deallocate()
        Glibc.close(wakeFD)
    }

    public func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }

    public func attach(_ source: any OutputSource) {
        lock.withLock { self.source = source }
    }

    public func kick() {
        wanted = true
        cpl_eventfd_signal(wakeFD)
    }

    public func setPaused(_ paused: Bool) {
        self.paused = paused
        cpl_eventfd_signal(wakeFD)
    }

    /// Forgets encoded bytes not yet written, except the rest of a frame partly written (the reader
    /// must stay aligned on frames). What the descriptor took is beyond recall.
    public func cancel() {
        let partial = bytesWritten % wireFrameBytes
        pendingEnd = min(pendingEnd, pendingStart + (partial == 0 ? 0 : wireFrameBytes - partial))
    }

    /// Frames still waiting here, plus those handed over ahead of real time.
    public var delayFrames: Int {
        let waiting = (pendingEnd - pendingStart + wireFrameBytes - 1) / wireFrameBytes
        return waiting + clock.ahead(at: MonotonicClock.nanoseconds())
    }

    /// The whole frames `cancel` drops: what the descriptor took is beyond recall.
    public var cancellableFrames: Int {
        let partial = bytesWritten % wireFrameBytes
        return max(0, pendingEnd - pendingStart - (partial == 0 ? 0 : wireFrameBytes - partial)) / wireFrameBytes
    }

    public func setVolume(_ percent: Int, muted: Bool) {
        changing {
            volumePercent = percent
            self.muted = muted
        }
    }

    public func close() {
        changing { closed = true }
    }

    /// Changes state holding the lock, then wakes the thread to act on it.
    private func changing(_ body: () -> Void) {
        lock.withLock(body)
        cpl_eventfd_signal(wakeFD)
    }
}

extension OutputRegistry.Entry {
    /// What makes a stream output to `destination` with `options`' latency (snapcast and pipe).
    static func stream(to destination: StreamDestination, _ options: OutputOptions) -> OutputRegistry.Make {
        var configuration = StreamOutput.Configuration()
        configuration.latencyMs = options.latencyMs
        return { [configuration] in StreamOutput(destination: destination, configuration: configuration) }
    }
}
