import CPulse

/// Volume, mute, the stream's description for mixers, and a pause that lets the fade-out play.
extension PulseOutput {
    public func setVolume(_ percent: Int, muted: Bool) {
        withLock {
            volumePercent = percent
            self.muted = muted
            applyVolumeLocked()
        }
    }

    /// Pausing: the stream plays what it holds (the sequencer's short fade-out, just pulled) and then
    /// corks. The drain is asked for from a timer of 0 µs, so after the write callback that pulled the
    /// fade has written it (asked for before, it would be over at once); a drain also starts a stream
    /// short of its prebuffer, as the fade alone is. A stream already corked keeps what it holds.
    func corkWhenPlayedLocked(_ stream: OpaquePointer) {
        guard pa_stream_is_corked(stream) == 0, !drainAsked else { return }   // a drain under way ends after this too
        drainPending = true
        setTimerLocked(&corkTimer, after: 0, pulseCorkTimer)
    }

    /// The cork timer: what was written is on its way; the drain's answer corks. Fired again when
    /// that answer is overdue (a server that stopped answering): whoever waits goes on.
    func corkTimerFired() {
        guard drainPending else { return }
        guard !drainAsked, corked, let stream = readyStream else { return heardLocked() }
        drainAsked = true
        complete(pa_stream_drain(stream, pulseDrained, Unmanaged.passUnretained(self).toOpaque()))
        setTimerLocked(&corkTimer, after: pa_usec_t(configuration.latencyMs + 500) * 1000, pulseCorkTimer)
    }

    /// The stream played all it held: corked if still paused (a resume meanwhile uncorked it). The
    /// server's read index ran on past the last frame until the cork came: the next write is flushed
    /// in first (`fillLocked`), or its first milliseconds (a resume's fade-in) would be dropped.
    func drainedLocked() {
        if corked, let stream = readyStream {
            complete(pa_stream_cork(stream, 1, nil, nil))
            refreshTimingLocked()
            ranDry = true
        }
        heardLocked()
    }

    public func whenHeard(_ done: @escaping @Sendable () -> Void) {
        if drainPending { heardWaiters.append(done) } else { done() }
    }

    /// What the stream held has been heard (or never will be: it went away, or closes): whoever
    /// waits for it goes on.
    func heardLocked() {
        drainPending = false
        drainAsked = false
        setTimerLocked(&corkTimer, after: nil, pulseCorkTimer)
        let waiters = heardWaiters
        heardWaiters = []
        for done in waiters { done() }
    }

    /// Arms `timer` to call `callback` on the mainloop thread after `usec` (made on first use; nil
    /// disarms it). Every timer of the output goes through here; `close` frees them.
    func setTimerLocked(_ timer: inout OpaquePointer?, after usec: pa_usec_t?, _ callback: pa_time_event_cb_t) {
        guard let usec else {
            if let timer { mainloopAPI.pointee.time_restart(timer, nil) }
            return
        }
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, usec)   // the mainloop's time events take wall-clock times
        if let timer {
            mainloopAPI.pointee.time_restart(timer, &when)
        } else {
            timer = mainloopAPI.pointee.time_new(mainloopAPI, &when, callback, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    public func setMetadata(title: String?, artist: String?) {
        withLock {
            guard let stream else { return }
            let props = pa_proplist_new()
            defer { pa_proplist_free(props) }
            pa_proplist_sets(props, PA_PROP_MEDIA_TITLE, title ?? "")
            pa_proplist_sets(props, PA_PROP_MEDIA_ARTIST, artist ?? "")
            complete(pa_stream_proplist_update(stream, PA_UPDATE_REPLACE, props, nil, nil))
        }
    }

    /// The stream's volume as a channel volume: `volumePercent` of PA_VOLUME_NORM on every channel.
    func cvolumeLocked() -> pa_cvolume {
        var volume = pa_cvolume()
        pa_cvolume_set(&volume, UInt32(format.channels), pa_volume_t(UInt64(cpa_volume_norm()) * UInt64(volumePercent) / 100))
        return volume
    }

    /// Sends volume and mute to the server for this stream's sink input.
    func applyVolumeLocked() {
        guard let context, let stream else { return }
        let index = pa_stream_get_index(stream)
        guard index != UInt32.max else { return }
        var volume = cvolumeLocked()
        complete(pa_context_set_sink_input_volume(context, index, &volume, nil, nil))
        complete(pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, nil, nil))
    }
}

private func pulseCorkTimer(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ e: OpaquePointer?,
                            _ tv: UnsafePointer<timeval>?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().corkTimerFired()
}

private func pulseDrained(_ s: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().drainedLocked()
}
