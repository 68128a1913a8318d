import CPulse

/// Volume, mute and the stream's description for mixers.
extension PulseSink {
    public func setVolume(_ percent: Int, muted: Bool) {
        withLock {
            volumePercent = min(100, max(0, percent))
            self.muted = muted
            applyVolumeLocked()
        }
    }

    /// What is left of a fade-out: the level it started from and the steps still to take.
    struct Fade {
        static let steps = 6
        var level: Int
        var stepUsec: pa_usec_t
        var stepsLeft = Fade.steps
        var timer: OpaquePointer?
        var done = false
    }

    /// Lowers the stream's volume to silence in small steps over about `milliseconds` (steps taken
    /// by a mainloop time event; this thread waits for the last), then stops: ending mid-waveform at
    /// full level would click.
    public func fadeOutAndStop(milliseconds: Int = 30) {
        lock(); defer { unlock() }
        if readyStream != nil, feed != nil, !corked {
            let step = pa_usec_t(milliseconds * 1000 / Fade.steps)
            fade = Fade(level: volumePercent, stepUsec: step)
            var when = Self.wallClock(after: step)
            fade?.timer = mainloopAPI.pointee.time_new(mainloopAPI, &when, pulseFadeStep, Unmanaged.passUnretained(self).toOpaque())
            while fade?.done == false { pa_threaded_mainloop_wait(mainloop) }   // signalled by the last step
            if let timer = fade?.timer { mainloopAPI.pointee.time_free(timer) }
            volumePercent = fade?.level ?? volumePercent
            fade = nil
        }
        stopLocked()
    }

    /// One step of the fade (mainloop thread).
    func fadeStep() {
        guard var current = fade, !current.done else { return }
        current.stepsLeft -= 1
        fade = current
        volumePercent = current.level * current.stepsLeft / Fade.steps
        applyVolumeLocked()
        if current.stepsLeft > 0, let timer = current.timer {
            var when = Self.wallClock(after: current.stepUsec)
            mainloopAPI.pointee.time_restart(timer, &when)
        } else {
            fadeEndedLocked()
        }
    }

    /// Ends the fade's wait (its last step, or the output went away).
    func fadeEndedLocked() {
        guard fade != nil else { return }
        fade?.done = true
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    /// Now plus `usec`, as the mainloop's time events want it (wall clock).
    static func wallClock(after usec: pa_usec_t) -> timeval {
        var when = timeval()
        pa_gettimeofday(&when)
        pa_timeval_add(&when, usec)
        return when
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
    Unmanaged<PulseSink>.fromOpaque(userdata!).takeUnretainedValue().fadeStep()
}
