import CPulse
import Foundation
import PreviewCore

/// Plays PCM through PulseAudio: one threaded mainloop and one long-lived asynchronous playback
/// stream, written to from the stream's write callback. Tracks are written into the same stream
/// back to back; a skip flushes it so old audio is not heard after the command.
///
/// Every field below is protected by the mainloop lock (`pa_threaded_mainloop_lock`); the callbacks
/// run on the mainloop thread with that lock held.
public final class PulseSink: AudioSink {
    /// Where and how to connect.
    public struct Configuration: Sendable {
        /// The server (libpulse's syntax); nil: libpulse's usual places (PULSE_SERVER, the session's).
        public var server: String?
        /// The sink to play on; nil: the server's default.
        public var sink: String?
        /// Target latency: how much audio the server holds ahead of the speaker.
        public var latencyMs: Int = 40
        /// How long to wait for the server when connecting.
        public var connectTimeout: TimeInterval = 5

        /// A configuration with the given server and sink.
        public init(server: String? = nil, sink: String? = nil) {
            self.server = server
            self.sink = sink
        }
    }

    public let format: PCMFormat
    private let configuration: Configuration
    private let mainloop: OpaquePointer
    private var context: OpaquePointer?          // protected by mainloop lock
    private var stream: OpaquePointer?           // protected by mainloop lock
    private var retryTimer: OpaquePointer?        // protected by mainloop lock
    private var feed: PCMBuffer?                 // protected by mainloop lock
    private var feedTag: RequestID?              // protected by mainloop lock
    private var feedFramesWritten = 0            // protected by mainloop lock
    private var drainReported = false            // protected by mainloop lock
    private var lostReason: String?              // protected by mainloop lock
    private var eventHandler: (@Sendable (OutputEvent) -> Void)?  // protected by mainloop lock
    private var closed = false                   // set once by close(), from the owner's thread

    /// A sink that connects on first use (a missing server is reported then, not at start).
    public init(configuration: Configuration = Configuration(), format: PCMFormat = .engine) {
        self.configuration = configuration
        self.format = format
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_set_name(mainloop, "previewd.pulse")
        pa_threaded_mainloop_start(mainloop)
    }

    deinit { close() }

    public func setEventHandler(_ handler: @escaping @Sendable (OutputEvent) -> Void) {
        withLock { eventHandler = handler }
    }

    public func play(_ feed: PCMBuffer, tag: RequestID, paused: Bool) throws(OutputError) {
        lock(); defer { unlock() }
        if stream == nil { try connectLocked() }
        guard let stream else { throw OutputError(lostReason ?? "no audio output") }
        // A skip flushes so the old track is not heard after the command. When the old track ended
        // by itself (its feed drained), its last frames are still playing: append instead, no gap.
        if !(self.feed?.isDrained ?? false) {
            complete(pa_stream_flush(stream, nil, nil))
        }
        self.feed = feed
        feedTag = tag
        feedFramesWritten = 0
        drainReported = false
        fillLocked(Int(pa_stream_writable_size(stream)))
        complete(pa_stream_cork(stream, paused ? 1 : 0, nil, nil))
    }

    public func pause() {
        withLock { if let stream { complete(pa_stream_cork(stream, 1, nil, nil)) } }
    }

    public func resume() {
        withLock { if let stream { complete(pa_stream_cork(stream, 0, nil, nil)) } }
    }

    public func stop() {
        withLock {
            feed = nil
            feedTag = nil
            feedFramesWritten = 0
            if let stream {
                complete(pa_stream_cork(stream, 1, nil, nil))
                complete(pa_stream_flush(stream, nil, nil))
            }
        }
    }

    public var playedFrames: Int {
        lock(); defer { unlock() }
        guard let stream, feed != nil else { return 0 }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        let buffered = pa_stream_get_latency(stream, &usec, &negative) == 0 && negative == 0
            ? Int(usec) * format.sampleRate / 1_000_000 : 0
        return max(0, feedFramesWritten - buffered)
    }

    public var statusText: String {
        withLock { lostReason ?? "ok" }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        lock()
        disconnectLocked()
        unlock()
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    // MARK: Connection

    private func connectLocked() throws(OutputError) {
        disconnectLocked()
        let api = pa_threaded_mainloop_get_api(mainloop)
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, "previewd")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ID, "previewd")
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "music")
        guard let ctx = pa_context_new_with_proplist(api, "previewd", props) else {
            throw fail("could not create a PulseAudio context")
        }
        context = ctx
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(ctx, pulseContextState, me)
        guard pa_context_connect(ctx, configuration.server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw fail("cannot connect to PulseAudio: \(String(cString: pa_strerror(pa_context_errno(ctx))))")
        }
        try waitLocked("connecting to PulseAudio") {
            let s = pa_context_get_state(ctx)
            if s == PA_CONTEXT_READY { return true }
            if cpa_context_is_good(s) == 0 { return nil }
            return false
        }

        var spec = pa_sample_spec(format: cpa_sample_float32ne(), rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        guard let s = pa_stream_new_with_proplist(ctx, "preview", &spec, nil, props) else {
            throw fail("cannot create a PulseAudio stream: \(String(cString: pa_strerror(pa_context_errno(ctx))))")
        }
        stream = s
        pa_stream_set_state_callback(s, pulseStreamState, me)
        pa_stream_set_write_callback(s, pulseStreamWrite, me)
        let bytesPerMs = format.bytesPerFrame * format.sampleRate / 1000
        let target = UInt32(configuration.latencyMs * bytesPerMs)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max,
                                  minreq: target / 4, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                      | PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_START_CORKED.rawValue)
        guard pa_stream_connect_playback(s, configuration.sink, &attr, flags, nil, nil) >= 0 else {
            throw fail("cannot open a PulseAudio stream: \(String(cString: pa_strerror(pa_context_errno(ctx))))")
        }
        try waitLocked("opening the PulseAudio stream") {
            let state = pa_stream_get_state(s)
            if state == PA_STREAM_READY { return true }
            if cpa_stream_is_good(state) == 0 { return nil }
            return false
        }
        retryTimer = pa_context_rttime_new(ctx, UInt64.max, pulseRetryTimer, me)  // created disarmed
        lostReason = nil
    }

    /// Waits (releasing the lock) until `ready` says true; nil from it means failure.
    private func waitLocked(_ what: String, _ ready: () -> Bool?) throws(OutputError) {
        let deadline = Date(timeIntervalSinceNow: configuration.connectTimeout)
        while true {
            switch ready() {
            case true?: return
            case nil:
                let why = context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "unknown error"
                throw fail("PulseAudio failed while \(what): \(why)")
            case false?:
                guard Date() < deadline else { throw fail("PulseAudio did not answer while \(what)") }
                // The state callbacks signal the mainloop; this wait releases the lock meanwhile.
                pa_threaded_mainloop_wait(mainloop)
            }
        }
    }

    private func fail(_ message: String) -> OutputError {
        disconnectLocked()
        lostReason = message
        return OutputError(message)
    }

    private func disconnectLocked() {
        if let retryTimer, let api = pa_threaded_mainloop_get_api(mainloop) {
            api.pointee.time_free(retryTimer)
        }
        retryTimer = nil
        if let s = stream {
            // Callbacks unset first, so none runs for a stream being freed (as MPD does).
            pa_stream_set_state_callback(s, nil, nil)
            pa_stream_set_write_callback(s, nil, nil)
            pa_stream_disconnect(s)
            pa_stream_unref(s)
            stream = nil
        }
        if let ctx = context {
            pa_context_set_state_callback(ctx, nil, nil)
            pa_context_disconnect(ctx)
            pa_context_unref(ctx)
            context = nil
        }
    }

    // MARK: Mainloop thread (lock held)

    /// Copies up to `bytes` from the feed into the stream's own memory. No allocation, no waiting.
    fileprivate func fillLocked(_ bytes: Int) {
        guard let stream, let feed, bytes > 0 else { return }
        var data: UnsafeMutableRawPointer?
        var size = bytes
        guard pa_stream_begin_write(stream, &data, &size) == 0, let data else { return }
        let wanted = size / format.bytesPerFrame
        let got = feed.read(into: data.assumingMemoryBound(to: Float.self), frames: wanted)
        if got > 0 {
            pa_stream_write(stream, data, got * format.bytesPerFrame, nil, 0, PA_SEEK_RELATIVE)
            feedFramesWritten += got
        } else {
            pa_stream_cancel_write(stream)
        }
        if got < wanted {
            if feed.isDrained {
                if !drainReported, let tag = feedTag {
                    drainReported = true
                    eventHandler?(.drained(tag))
                }
            } else {
                armRetryLocked()  // the decoder is behind (buffering): look again shortly
            }
        }
    }

    private func armRetryLocked() {
        guard let context, let retryTimer else { return }
        pa_context_rttime_restart(context, retryTimer, pa_rtclock_now() + 5_000)
    }

    fileprivate func retryFired() {
        guard let stream else { return }
        fillLocked(Int(pa_stream_writable_size(stream)))
    }

    fileprivate func contextStateChanged() {
        pa_threaded_mainloop_signal(mainloop, 0)
        guard let context else { return }
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED, stream != nil {
            let why = "PulseAudio connection lost: \(String(cString: pa_strerror(pa_context_errno(context))))"
            lostReason = why
            eventHandler?(.lost(why))
        }
    }

    fileprivate func streamStateChanged() {
        pa_threaded_mainloop_signal(mainloop, 0)
        guard let stream, lostReason == nil else { return }
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
            lostReason = "PulseAudio stream ended (sink removed?)"
            eventHandler?(.lost(lostReason!))
        }
    }

    // MARK: Locking

    private func lock() { pa_threaded_mainloop_lock(mainloop) }
    private func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    private func withLock<T>(_ body: () -> T) -> T { lock(); defer { unlock() }; return body() }
    private func complete(_ operation: OpaquePointer?) { if let operation { pa_operation_unref(operation) } }
}

// The fields are guarded by the mainloop lock (see the type's comment); libpulse objects are used only
// with it held.
extension PulseSink: @unchecked Sendable {}

private func sink(_ userdata: UnsafeMutableRawPointer?) -> PulseSink {
    Unmanaged<PulseSink>.fromOpaque(userdata!).takeUnretainedValue()
}

private func pulseContextState(_ c: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    sink(userdata).contextStateChanged()
}

private func pulseStreamState(_ s: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    sink(userdata).streamStateChanged()
}

private func pulseStreamWrite(_ s: OpaquePointer?, _ bytes: Int, _ userdata: UnsafeMutableRawPointer?) {
    sink(userdata).fillLocked(bytes)
}

private func pulseRetryTimer(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ e: OpaquePointer?,
                             _ tv: UnsafePointer<timeval>?, _ userdata: UnsafeMutableRawPointer?) {
    sink(userdata).retryFired()
}
