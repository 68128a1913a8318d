import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// Connecting, losing and regaining the PulseAudio server.
extension PulseSink {
    /// Creates the context and the playback stream and waits until both are ready.
    func connectLocked() throws(OutputError) {
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
            return cpa_context_is_good(s) == 0 ? nil : false
        }

        var spec = pa_sample_spec(format: cpa_sample_float32ne(), rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        guard let s = pa_stream_new_with_proplist(ctx, "preview", &spec, nil, props) else {
            throw fail("cannot create a PulseAudio stream: \(String(cString: pa_strerror(pa_context_errno(ctx))))")
        }
        stream = s
        pa_stream_set_state_callback(s, pulseStreamState, me)
        pa_stream_set_write_callback(s, pulseStreamWrite, me)
        // ~40 ms in the server, refilled a third at a time: low latency without pa_simple's ~2 s, and
        // a third fewer wake-ups than a quarter (a pause is still silent in the first 10 ms).
        let bytesPerMs = format.bytesPerFrame * format.sampleRate / 1000
        let target = UInt32(configuration.latencyMs * bytesPerMs)
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max,
                                  minreq: target / 3, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                      | PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_START_CORKED.rawValue
                                      | PA_STREAM_START_MUTED.rawValue * (muted ? 1 : 0))
        var volume = cvolumeLocked()
        guard pa_stream_connect_playback(s, configuration.sink, &attr, flags, &volume, nil) >= 0 else {
            throw fail("cannot open a PulseAudio stream: \(String(cString: pa_strerror(pa_context_errno(ctx))))")
        }
        try waitLocked("opening the PulseAudio stream") {
            let state = pa_stream_get_state(s)
            if state == PA_STREAM_READY { return true }
            return cpa_stream_is_good(state) == 0 ? nil : false
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

    func disconnectLocked() {
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

    /// The server or the stream went away: report what had been heard, drop the feeds, reconnect.
    func lostLocked(_ why: String) {
        guard lostReason == nil, !closed else { return }
        lostReason = why
        let heard = heardFramesLocked()
        feed = nil
        queued = nil
        feedFramesWritten = 0
        eventHandler?(.lost(why, heardFrames: heard))
        startReconnectingLocked()
    }

    /// Starts the reconnecting thread unless one runs: it tries with growing waits until the server
    /// answers or the sink is closed, then reports `.restored`.
    func startReconnectingLocked() {
        guard !reconnecting, !closed else { return }
        reconnecting = true
        startThread { [self] in
            var attempt = 0
            while true {
                let delays = configuration.reconnectBackoff
                let wait = delays[min(attempt, delays.count - 1)]
                attempt += 1
                if wakeReconnector.wait(timeout: .now() + wait) == .success { return }   // closed
                lock()
                if closed { unlock(); return }
                do {
                    try connectLocked()
                    reconnecting = false
                    applyVolumeLocked()
                    eventHandler?(.restored)
                    unlock()
                    return
                } catch {
                    unlock()
                }
            }
        }
    }

    func contextStateChanged() {
        pa_threaded_mainloop_signal(mainloop, 0)
        guard let context, stream != nil else { return }
        let state = pa_context_get_state(context)
        if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
            lostLocked("PulseAudio connection lost: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
    }

    func streamStateChanged() {
        pa_threaded_mainloop_signal(mainloop, 0)
        guard let stream else { return }
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
            lostLocked("PulseAudio stream ended (sink removed or server gone)")
        }
    }
}

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
