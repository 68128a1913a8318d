import CPulse

/// Volume, mute and the stream's description for mixers.
extension PulseOutput {
    public func setVolume(_ percent: Int, muted: Bool) {
        withLock {
            volumePercent = percent
            self.muted = muted
            applyVolumeLocked()
        }
    }

    /// What is left of a fade-out: the level it started from, the steps still to take, and whom to
    /// tell at the end.
    struct Fade {
        static let steps = 6
        var level: Int
        var stepUsec: pa_usec_t
        var stepsLeft = Fade.steps
        var done: @Sendable () -> Void
    }

    /// Lowers the stream's volume to silence in small steps over about `milliseconds` (steps taken
    /// by a mainloop time event), then calls `done`: ending mid-waveform at full level would click.
    /// Nobody waits for it.
    public func fadeOut(milliseconds: Int, then done: @escaping @Sendable () -> Void) {
        guard readyStream != nil, !corked, fade == nil else { return done() }
        let step = pa_usec_t(milliseconds * 1000 / Fade.steps)
        fade = Fade(level: volumePercent, stepUsec: step, done: done)
        setTimerLocked(&fadeTimer, after: step, pulseFadeStep)
    }

    /// One step of the fade (mainloop thread).
    func fadeStep() {
        guard var current = fade else { return }
        current.stepsLeft -= 1
        fade = current
        volumePercent = current.level * current.stepsLeft / Fade.steps
        applyVolumeLocked()
        if current.stepsLeft > 0 {
            setTimerLocked(&fadeTimer, after: current.stepUsec, pulseFadeStep)
        } else {
            fadeEndedLocked()
        }
    }

    /// Ends the fade (its last step, the output went away, or it closes): the level it started from
    /// is kept for later streams, and its caller told.
    func fadeEndedLocked() {
        guard let ended = fade else { return }
        fade = nil
        setTimerLocked(&fadeTimer, after: nil, pulseFadeStep)
        volumePercent = ended.level
        ended.done()
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

private func pulseFadeStep(_ api: UnsafeMutablePointer<pa_mainloop_api>?, _ e: OpaquePointer?,
                           _ tv: UnsafePointer<timeval>?, _ userdata: UnsafeMutableRawPointer?) {
    Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue().fadeStep()
}
