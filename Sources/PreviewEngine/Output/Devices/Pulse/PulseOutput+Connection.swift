import CPulse
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Connecting, losing and regaining the PulseAudio server, all on the mainloop thread: each step
/// is a callback (context state, stream state, the link timer), none waits.
extension PulseOutput {
    /// Starts an attempt: a new context connecting, the stream opened once it is ready
    /// (`contextStateChanged`), and the link timer as the attempt's deadline.
    func connectLocked() {
        disconnectLocked()
        link = .connecting
        setTimerLocked(&linkTimer, after: pa_usec_t(configuration.connectTimeout * 1_000_000), pulseLinkTimer)
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, "previewd")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ID, "previewd")
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "music")
        guard let ctx = pa_context_new_with_proplist(mainloopAPI, "previewd", props) else {
            return connectionFailedLocked("could not create a PulseAudio context")
        }
        context = ctx
        pa_context_set_state_callback(ctx, pulseContextState, Unmanaged.passUnretained(self).toOpaque())
        guard pa_context_connect(ctx, configuration.server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            return connectionFailedLocked("cannot connect to PulseAudio: \(errorText(ctx))")
        }
    }

    /// The context is ready: opens the playback stream on it, corked.
    private func openStreamLocked(_ ctx: OpaquePointer) {
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, "music")
        var spec = pa_sample_spec(format: cpa_sample_float32ne(), rate: UInt32(format.sampleRate),
                                  channels: UInt8(format.channels))
        guard let s = pa_stream_new_with_proplist(ctx, "preview", &spec, nil, props) else {
            return connectionFailedLocked("cannot create a PulseAudio stream: \(errorText(ctx))")
        }
        stream = s
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(s, pulseStreamState, me)
        pa_stream_set_write_callback(s, pulseStreamWrite, me)
        // ~100 ms in the server, refilled half at a time: about 20 wake-ups a second while playing.
        // Pause and skip stay immediate (cork and flush act on the server's buffer at once).
        let bytesPerMs = format.bytesPerFrame * format.sampleRate / 1000
        let target = UInt32(configuration.latencyMs * bytesPerMs)
        // The server keeps (tlength − 2·minreq)/2 in the sink itself (ADJUST_LATENCY): about 6 ms
        // there keeps a pause silent within 10 ms; the rest is refilled in large, rare requests.
        let sinkPart = UInt32(6 * bytesPerMs)
        let minreq = target > 3 * sinkPart ? max(target / 3, (target - 2 * sinkPart) / 2) : target / 3
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max,
                                  minreq: minreq, fragsize: UInt32.max)
        // Timing is refreshed by `refreshTimingLocked`, only while playing.
        let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue
                                      | PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_START_CORKED.rawValue
                                      | PA_STREAM_START_MUTED.rawValue * (muted ? 1 : 0))
        var volume = cvolumeLocked()
        guard pa_stream_connect_playback(s, configuration.sink, &attr, flags, &volume, nil) >= 0 else {
            return connectionFailedLocked("cannot open a PulseAudio stream: \(errorText(ctx))")
        }
    }

    /// The stream is ready: the attempt succeeded. After a loss the sequencer tells the player (it
    /// starts again from where the sound stopped, and drops its feeds); on the first connection the
    /// waiting feed is written.
    private func streamReadyLocked(_ s: OpaquePointer) {
        link = .ready
        backoff.succeeded()
        setTimerLocked(&linkTimer, after: nil, pulseLinkTimer)
        applyVolumeLocked()
        source?.outputRestored()
        if source?.hasFeed ?? false {
            fillLocked(Int(pa_stream_writable_size(s)))
            setCorkLocked(corked)
        }
    }

    /// The connection or an attempt at it failed: the sequencer reports the loss once (with what had
    /// been heard) and drops the feeds; the output tries again after the next backoff step.
    func connectionFailedLocked(_ why: String) {
        guard !closed, link == .connecting || link == .ready else { return }
        source?.outputLost(why)
        link = .waitingToRetry
        setTimerLocked(&linkTimer, after: pa_usec_t(backoff.failed() * 1_000_000), pulseLinkTimer)
        heardLocked()   // what the stream held is gone
    }

    /// The link timer: an attempt ran out of time, or the wait before the next one is over.
    func linkTimerFired() {
        switch link {
        case .connecting: connectionFailedLocked("PulseAudio did not answer within \(Int(configuration.connectTimeout)) s")
        case .waitingToRetry: connectLocked()
        case .down, .ready: break
        }
    }

    func disconnectLocked() {
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

    func contextStateChanged() {
        guard let context else { return }
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY: if stream == nil { openStreamLocked(context) }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            connectionFailedLocked(link == .ready ? "PulseAudio connection lost: \(errorText(context))"
                                                  : "cannot connect to PulseAudio: \(errorText(context))")
        default: break
        }
    }

    func streamStateChanged() {
        guard let stream else { return }
        switch pa_stream_get_state(stream) {
        case PA_STREAM_READY: streamReadyLocked(stream)
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            connectionFailedLocked(link == .ready ? "PulseAudio stream ended (sink removed or server gone)"
                                                  : "cannot open a PulseAudio stream: \(context.map(errorText) ?? "no context")")
        default: break
        }
    }

    private func errorText(_ ctx: OpaquePointer) -> String {
        String(cString: pa_strerror(pa_context_errno(ctx)))
    }
}

private func output(_ userdata: UnsafeMutableRawPointer?) -> PulseOutput {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue()
}

private func pulseContextState(_ c: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    output(userdata).contextStateChanged()
}

private func pulseStreamState(_ s: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    output(userdata).streamStateChanged()
}

private func pulseStreamWrite(_ s: OpaquePointer?, _ bytes: Int, _ userdata: UnsafeMutableRawPointer?) {
    output(userdata).fillLocked(bytes)
}

private func pulseLinkTimer(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ e: OpaquePointer?,
                            _ tv: UnsafePointer<timeval>?, _ userdata: UnsafeMutableRawPointer?) {
    output(userdata).linkTimerFired()
}
