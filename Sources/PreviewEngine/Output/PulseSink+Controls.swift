import Glibc
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

    /// Lowers the stream's volume to silence in small steps over about `milliseconds`, then stops:
    /// ending mid-waveform at full level would click.
    public func fadeOutAndStop(milliseconds: Int = 30) {
        let level = withLock { volumePercent }
        let steps = 6
        for step in 1...steps {
            withLock {
                volumePercent = level * (steps - step) / steps
                applyVolumeLocked()
            }
            usleep(UInt32(milliseconds * 1000 / steps))
        }
        stop()
        withLock { volumePercent = level }
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
