import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Plays PCM through PulseAudio: one threaded mainloop and one long-lived asynchronous playback
/// stream, filled from the stream's write callback with frames pulled from the `OutputSequencer`
/// (which follows a drained feed with the enqueued one in the same pull: gapless). Cancel flushes
/// the stream so old audio is not heard after a skip; a pause lets the sequencer's short fade-out
/// play, then corks.
///
/// The mainloop thread alone connects: the first kick starts an asynchronous connection and
/// returns; when the server goes away (or never answers) the output tells the sequencer (`.lost`
/// once), tries again from a mainloop time event with growing waits, and tells it again when ready
/// (`.restored`). No caller ever waits for the server, and no second thread ever touches a context.
///
/// Fields marked "mainloop lock" are read and written only with `pa_threaded_mainloop_lock` held;
/// the callbacks run on the mainloop thread with that lock held. It is the output's lock
/// (`withLock`): the sequencer's state is guarded by it too.
public final class PulseOutput: AudioOutput {
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
        /// Waits between reconnection attempts.
        public var reconnectBackoff = ReconnectBackoff()

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
    var corkTimer: OpaquePointer?            // mainloop lock; a pause's drain, once the fade is written
    var backoff: ReconnectBackoff            // mainloop lock; failures since the last ready stream
    var corked = true                        // mainloop lock; what the stream should be
    var drainPending = false                 // mainloop lock; a pause's drain due, not answered
    var drainAsked = false                   // mainloop lock; and sent to the server
    var ranDry = false                       // mainloop lock; drained and corked: flush before writing
    var flushed = false                      // mainloop lock; flushed, not yet written since
    var heardWaiters: [@Sendable () -> Void] = []   // mainloop lock; `whenHeard` callers
    weak var source: (any OutputSource)?        // mainloop lock
    var volumePercent = 100                  // mainloop lock
    var muted = false                        // mainloop lock
    var closed = false                       // mainloop lock
    private var released = false             // owner's thread only: close() ran

    /// An output that connects on first use (a missing server is reported then, not at start).
    public init(configuration: Configuration = Configuration(), format: PCMFormat = .preferred) {
        self.configuration = configuration
        self.format = format
        backoff = configuration.reconnectBackoff
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_set_name(mainloop, "previewd.pulse")
        pa_threaded_mainloop_start(mainloop)
    }

    deinit {
        close()
        // Freed only here: a decoder calling back (`whenReadable`) holds the sequencer, and so this
        // output, strongly for the call, so the mainloop's mutex it locks is never freed under it.
        pa_threaded_mainloop_free(mainloop)
    }

    public func attach(_ source: any OutputSource) {
        withLock { self.source = source }
    }

    public func kick() {
        guard let stream = readyStream else {
            // Written once the stream is ready. After a loss the retry timer reconnects, and the
            // player starts again from `.restored`.
            if link == .down, !closed { connectLocked() }
            return
        }
        fillLocked(Int(pa_stream_writable_size(stream)))
    }

    public func setPaused(_ paused: Bool) {
        setCorkLocked(paused)
    }

    public func cancel() {
        if let stream = readyStream { flushLocked(stream) }
    }

    /// What the server still holds: its latency, or the target while it has not said.
    public var delayFrames: Int {
        guard let stream else { return 0 }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        return pa_stream_get_latency(stream, &usec, &negative) == 0 && negative == 0
            ? Int(usec) * format.sampleRate / 1_000_000 : format.frames(milliseconds: configuration.latencyMs)
    }

    public func close() {
        guard !released else { return }   // deinit calls this again after an explicit close
        released = true
        lock()
        closed = true
        link = .down
        heardLocked()   // a shutdown waiting for the fade goes on
        for timer in [linkTimer, timingTimer, corkTimer].compactMap({ $0 }) { mainloopAPI.pointee.time_free(timer) }
        (linkTimer, timingTimer, corkTimer) = (nil, nil, nil)
        disconnectLocked()
        unlock()
        pa_threaded_mainloop_stop(mainloop)
    }

    // MARK: Mainloop thread (lock held)

    /// The stream, when it is ready to be written to.
    var readyStream: OpaquePointer? { link == .ready ? stream : nil }

    /// Paused, the stream plays what it holds, then corks (`corkWhenPlayedLocked`); unpaused, it
    /// goes on at once.
    func setCorkLocked(_ on: Bool) {
        corked = on
        guard let stream = readyStream else { return }
        if on { return corkWhenPlayedLocked(stream) }
        complete(pa_stream_cork(stream, 0, nil, nil))
        refreshTimingLocked()
    }

    /// Asks the server where the stream is now, and again every second while it plays. libpulse's own
    /// automatic updates would go on every 1.5 s while corked; between these, libpulse interpolates.
    func refreshTimingLocked() {
        guard let stream = readyStream else { return }
        complete(pa_stream_update_timing_info(stream, nil, nil))
        setTimerLocked(&timingTimer, after: corked ? nil : 1_000_000, pulseTimingTimer)
    }

    /// Drops what the server holds unplayed: the write index back to the read index.
    func flushLocked(_ stream: OpaquePointer) {
        complete(pa_stream_flush(stream, nil, nil))
        flushed = true
    }

    /// Copies up to `bytes` pulled from the sequencer into the stream's own memory. No allocation,
    /// no waiting; stops at the first short pull (the sequencer kicks again when there is more).
    ///
    /// After a flush, what follows (a pause's fade-out, a skip's new track, a resume) must be heard
    /// at once: it is written before the server asks for it (up to the stream's target; libpulse
    /// allows writing ahead of a request), so it reaches the server right behind the flush, and the
    /// stream is triggered, since a flush puts the server's queue back to prebuffering (a 3 ms fade
    /// would wait there). The sink holds only a few milliseconds of its own (`openStreamLocked`):
    /// waiting for the server's request and a drain to start it, a client slowed by a busy machine
    /// let the sink run dry, the sound cut, and the fade-out was heard at the resume instead.
    func fillLocked(_ bytes: Int) {
        guard let source, let stream = readyStream else { return }
        if ranDry {
            ranDry = false
            flushLocked(stream)
        }
        let afterFlush = flushed
        var remaining = bytes
        if afterFlush, let attr = pa_stream_get_buffer_attr(stream) { remaining = max(bytes, Int(attr.pointee.tlength)) }
        var wrote = false
        while remaining >= format.bytesPerFrame, readyStream != nil {
            var data: UnsafeMutableRawPointer?
            var size = remaining
            guard pa_stream_begin_write(stream, &data, &size) == 0, let data, size > 0 else { break }
            let wanted = size / format.bytesPerFrame
            let got = source.pull(into: data.assumingMemoryBound(to: Float.self), frames: wanted)
            if got > 0 {
                pa_stream_write(stream, data, got * format.bytesPerFrame, nil, 0, PA_SEEK_RELATIVE)
                remaining -= got * format.bytesPerFrame
                wrote = true
            } else {
                pa_stream_cancel_write(stream)
            }
            guard got == wanted else { break }
        }
        if afterFlush, wrote, readyStream != nil { complete(pa_stream_trigger(stream, nil, nil)) }
        flushed = afterFlush && !wrote   // nothing yet (a skip to a track still decoding): the first write does it
    }

    // MARK: Locking

    var mainloopAPI: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(mainloop) }
    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    public func withLock<T>(_ body: () -> T) -> T { lock(); defer { unlock() }; return body() }
    func complete(_ operation: OpaquePointer?) { if let operation { pa_operation_unref(operation) } }
}

// Every mutable field is guarded by the mainloop lock (see the type's comment); libpulse objects are
// used only with it held.
extension PulseOutput: @unchecked Sendable {}

private func pulseTimingTimer(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ e: OpaquePointer?,
                              _ tv: UnsafePointer<timeval>?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().refreshTimingLocked()
}

extension OutputRegistry.Entry {
    /// `--output pulse[,sink=NAME][,server=ADDRESS]`: PulseAudio, or PipeWire through pipewire-pulse;
    /// `--sink` and `--pulse-server` apply to the first.
    static let pulse = OutputRegistry.Entry(usage: "pulse", mpdPlugin: "pulse", playsToDevice: true, claims: { $0 == "pulse" }) { options in
        try options.refuseALSAOptions()
        try options.acceptSettings(["sink", "server"])
        var configuration = PulseOutput.Configuration(server: options.settings["server"] ?? options.pulseServer,
                                                      sink: options.settings["sink"] ?? options.sink)
        configuration.latencyMs = options.latencyMs
        return { [configuration] in PulseOutput(configuration: configuration, format: PulseOutput.sinkFormat(configuration)) }
    }
}
