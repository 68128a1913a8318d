import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Plays PCM through PulseAudio: one threaded mainloop and one long-lived asynchronous playback
/// stream, written to from the stream's write callback. Tracks are written into the same stream
/// back to back (an enqueued feed follows the drained one in the same callback: gapless); a skip
/// flushes the stream so old audio is not heard after the command.
///
/// The mainloop thread alone connects: the first `play` starts an asynchronous connection and
/// returns; when the server goes away (or never answers) the sink reports `.lost` once, tries
/// again from a mainloop time event with growing waits, and reports `.restored`. No caller ever
/// waits for the server, and no second thread ever touches a context.
///
/// Fields marked "mainloop lock" are read and written only with `pa_threaded_mainloop_lock` held;
/// the callbacks run on the mainloop thread with that lock held.
public final class PulseSink: AudioSink {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        /// The server (libpulse's syntax); nil: libpulse's usual places (PULSE_SERVER, the session's).
        public var server: String?
        /// The sink to play on; nil: the server's default.
        public var sink: String?
        /// Target latency: how much audio the server holds ahead of the speaker.
        public var latencyMs: Int = 100
        /// How long a connection attempt may take before it counts as failed.
        public var connectTimeout: TimeInterval = 5
        /// Waits between reconnection attempts; the last one repeats.
        public var reconnectBackoff: [TimeInterval] = [0.2, 0.5, 1, 2, 4]

        /// A configuration with the given server and sink.
        public init(server: String? = nil, sink: String? = nil) {
            self.server = server
            self.sink = sink
        }
    }

    public let format: PCMFormat
    let configuration: Configuration
    let mainloop: OpaquePointer
    /// Where the connection to the server is.
    enum Link { case down, connecting, ready, waitingToRetry }
    var link = Link.down                     // mainloop lock
    var context: OpaquePointer?              // mainloop lock
    var stream: OpaquePointer?               // mainloop lock
    /// The connection's one timer: an attempt's deadline, then the wait before the next attempt.
    var linkTimer: OpaquePointer?            // mainloop lock
    /// Refreshes the server's timing once a second while the stream plays (never while corked).
    var timingTimer: OpaquePointer?          // mainloop lock
    var fadeTimer: OpaquePointer?            // mainloop lock; steps of `fade`
    var failedAttempts = 0                   // mainloop lock; since the last ready stream
    var lossReported = false                 // mainloop lock; `.lost` sent, `.restored` owed
    var corked = true                        // mainloop lock; what the stream should be
    var fade: Fade?                          // mainloop lock; a fade-out in progress
    var feed: PCMBuffer?                     // mainloop lock
    var queued: PCMBuffer?                   // mainloop lock; plays when `feed` drains
    var feedFramesWritten = 0                // mainloop lock
    var feedStartedAt: UInt64?               // mainloop lock; first frame of `feed` written
    var drainReported = false                // mainloop lock
    var starving = false                     // mainloop lock; an underrun was reported
    var lostReason: String?                  // mainloop lock
    var volumePercent = 100                  // mainloop lock
    var muted = false                        // mainloop lock
    var eventHandler: (@Sendable (OutputEvent) -> Void)?  // mainloop lock
    var closed = false                       // mainloop lock
    private var released = false             // owner's thread only: close() ran

    /// A sink that connects on first use (a missing server is reported then, not at start).
    public init(configuration: Configuration = Configuration(), format: PCMFormat = .engine) {
        self.configuration = configuration
        self.format = format
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_set_name(mainloop, "previewd.pulse")
        pa_threaded_mainloop_start(mainloop)
    }

    deinit {
        close()
        // Freed only here: a decoder calling back (`whenReadable`) holds the sink strongly for the
        // call, so the mainloop's mutex it locks is never freed under it, even after `close`.
        pa_threaded_mainloop_free(mainloop)
    }

    public func setEventHandler(_ handler: @escaping @Sendable (OutputEvent) -> Void) {
        withLock { eventHandler = handler }
    }

    public func play(_ feed: PCMBuffer, paused: Bool) {
        lock(); defer { unlock() }
        if self.feed !== feed {
            // A skip flushes so the old track is not heard after the command. When the old track ended
            // by itself (its feed drained), its last frames are still playing: append instead, no gap.
            if let stream = readyStream, !(self.feed?.isDrained ?? true) { complete(pa_stream_flush(stream, nil, nil)) }
            self.feed = feed
            feedFramesWritten = 0
            drainReported = false
            starving = false
        }
        if queued === feed { queued = nil }
        corked = paused
        guard let stream = readyStream else {
            // Written once the stream is ready. After a loss the retry timer reconnects, and the
            // player starts again from `.restored`.
            if link == .down, !closed { connectLocked() }
            return
        }
        fillLocked(Int(pa_stream_writable_size(stream)))
        setCorkLocked(paused)
    }

    public func enqueue(_ next: PCMBuffer?) {
        withLock {
            queued = next
            // The current feed may already be drained and waiting: start the next one now.
            if let stream = readyStream, feed?.isDrained ?? false { fillLocked(Int(pa_stream_writable_size(stream))) }
        }
    }

    public func pause() {
        withLock { setCorkLocked(true) }
    }

    public func resume() {
        withLock { setCorkLocked(false) }
    }

    public func stop() {
        withLock { stopLocked() }
    }

    public var playedFrames: Int {
        lock(); defer { unlock() }
        return heardFramesLocked()
    }

    public var currentFeed: ObjectIdentifier? {
        withLock { feed.map(ObjectIdentifier.init) }
    }

    public var currentFeedStartedAt: UInt64? {
        withLock { feedFramesWritten > 0 ? feedStartedAt : nil }
    }

    public var statusText: String {
        withLock { lostReason ?? "ok" }
    }

    public func close() {
        guard !released else { return }   // deinit calls this again after an explicit close
        released = true
        lock()
        closed = true
        link = .down
        for timer in [linkTimer, timingTimer, fadeTimer].compactMap({ $0 }) { mainloopAPI.pointee.time_free(timer) }
        (linkTimer, timingTimer, fadeTimer) = (nil, nil, nil)
        disconnectLocked()
        unlock()
        pa_threaded_mainloop_stop(mainloop)
    }

    // MARK: Mainloop thread (lock held)

    /// The stream, when it is ready to be written to.
    var readyStream: OpaquePointer? { link == .ready ? stream : nil }

    func setCorkLocked(_ on: Bool) {
        corked = on
        guard let stream = readyStream else { return }
        complete(pa_stream_cork(stream, on ? 1 : 0, nil, nil))
        refreshTimingLocked()
    }

    /// Asks the server where the stream is now, and again every second while it plays. libpulse's own
    /// automatic updates would go on every 1.5 s while corked; between these, libpulse interpolates.
    func refreshTimingLocked() {
        guard let stream = readyStream else { return }
        complete(pa_stream_update_timing_info(stream, nil, nil))
        setTimerLocked(&timingTimer, after: corked ? nil : 1_000_000, pulseTimingTimer)
    }

    func stopLocked() {
        feed = nil
        queued = nil
        feedFramesWritten = 0
        setCorkLocked(true)
        if let stream = readyStream { complete(pa_stream_flush(stream, nil, nil)) }
    }

    /// Frames of the current feed heard: written minus what the server still holds.
    func heardFramesLocked() -> Int {
        guard let stream, feed != nil else { return 0 }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        let buffered = pa_stream_get_latency(stream, &usec, &negative) == 0 && negative == 0
            ? Int(usec) * format.sampleRate / 1_000_000 : format.frames(milliseconds: configuration.latencyMs)
        return max(0, feedFramesWritten - buffered)
    }

    /// Copies up to `bytes` from the feed (then the enqueued one) into the stream's own memory.
    /// No allocation, no waiting.
    func fillLocked(_ bytes: Int) {
        var remaining = bytes
        while remaining >= format.bytesPerFrame, let stream = readyStream, let current = feed {
            var data: UnsafeMutableRawPointer?
            var size = remaining
            guard pa_stream_begin_write(stream, &data, &size) == 0, let data, size > 0 else { return }
            let wanted = size / format.bytesPerFrame
            let got = current.read(into: data.assumingMemoryBound(to: Float.self), frames: wanted)
            if got > 0 {
                if feedFramesWritten == 0 { feedStartedAt = MonotonicClock.nanoseconds() }
                pa_stream_write(stream, data, got * format.bytesPerFrame, nil, 0, PA_SEEK_RELATIVE)
                feedFramesWritten += got
                remaining -= got * format.bytesPerFrame
                if starving { starving = false; eventHandler?(.refilled(ObjectIdentifier(current))) }
            } else {
                pa_stream_cancel_write(stream)
            }
            guard got < wanted else { continue }
            if current.isDrained {
                if !drainReported {
                    drainReported = true
                    eventHandler?(.drained(ObjectIdentifier(current)))
                }
                guard let next = queued else { return }
                // Gapless: the next track's first frames go right after this one's last.
                feed = next
                queued = nil
                feedFramesWritten = 0
                drainReported = false
                starving = false
                eventHandler?(.started(ObjectIdentifier(next)))
            } else {
                // The decoder is behind: it calls back with its next frames (none wait for a timer).
                guard current.whenReadable({ [weak self] in self?.feedBecameReadable() }) else { continue }
                if feedFramesWritten > 0, !starving {
                    starving = true
                    eventHandler?(.underrun(ObjectIdentifier(current)))
                }
                return
            }
        }
    }

    /// A feed that had run dry has frames again (called on its decoder's thread).
    private func feedBecameReadable() {
        withLock { if let stream = readyStream { fillLocked(Int(pa_stream_writable_size(stream))) } }
    }

    // MARK: Locking

    var mainloopAPI: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(mainloop) }
    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    func withLock<T>(_ body: () -> T) -> T { lock(); defer { unlock() }; return body() }
    func complete(_ operation: OpaquePointer?) { if let operation { pa_operation_unref(operation) } }
}

// Every mutable field is guarded by the mainloop lock (see the type's comment); libpulse objects are
// used only with it held.
extension PulseSink: @unchecked Sendable {}

private func pulseTimingTimer(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ e: OpaquePointer?,
                              _ tv: UnsafePointer<timeval>?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseSink>.fromOpaque(userdata!).takeUnretainedValue().refreshTimingLocked()
}
