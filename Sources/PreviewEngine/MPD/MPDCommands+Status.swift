import PreviewCore

extension MPDCommands {
    /// `status`: the fields of MPD's, from the player's state.
    static func status(_ call: MPDCall) async throws(MPDError) {
        let s = call.status()
        var r = MPDResponse()
        r.add("volume", s.muted ? 0 : s.volume)
        r.add("repeat", s.repeat == .off ? 0 : 1)
        r.add("random", s.shuffle ? 1 : 0)
        r.add("single", s.repeat == .one ? "1" : (s.single == .oneshot ? "oneshot" : (s.single == .on ? "1" : "0")))
        r.add("consume", s.consume ? 1 : 0)
        r.add("partition", "default")
        r.add("playlist", s.queueVersion)
        r.add("playlistlength", s.queueLength)
        call.server.mixRamp.add(to: &r)   // MPD writes mixrampdb here and mixrampdelay after xfade
        r.add("state", state(s.state))
        if s.crossfade > 0 { r.add("xfade", s.crossfade) }
        if let index = s.index, let id = s.id {
            r.add("song", index)
            r.add("songid", id)
        }
        if s.state == .playing || s.state == .paused || s.state == .loading {
            let duration = s.durationMs ?? s.track?.trackTimeMillis
            r.add("time", "\((s.positionMs + 500) / 1000):\(((duration ?? 0) + 500) / 1000)")
            r.add("elapsed", MPDResponse.seconds(ms: s.positionMs))
            if let duration { r.add("duration", MPDResponse.seconds(ms: duration)) }
            if let audio = s.audio { r.add("audio", audio) }
            // The preview's average bitrate, once its whole file is in (MPD's is the decoder's now).
            if let duration, duration > 0, let slot = s.slots.first(where: { $0.index == s.index && $0.complete }) {
                r.add("bitrate", slot.bytes * 8 / duration)
            }
        }
        if let index = s.nextIndex, let id = s.nextId {
            r.add("nextsong", index)
            r.add("nextsongid", id)
        }
        if let error = s.error { r.add("error", error) }
        call.response.append(r)
    }

    /// `currentsong`: the current queue item as a song.
    static func currentsong(_ call: MPDCall) async throws(MPDError) {
        let s = call.status()
        guard let track = s.track, let index = s.index else { return }
        call.addSong(track, position: index, id: s.id, durationMs: s.durationMs)
    }

    /// `stats`: previewd has no database; its uptime.
    static func stats(_ call: MPDCall) async throws(MPDError) {
        let uptime = Int((MonotonicClock.nanoseconds() - call.server.started) / 1_000_000_000)
        for key in ["artists", "albums", "songs"] { call.response.add(key, 0) }
        call.response.add("uptime", uptime)
        call.response.add("playtime", 0)
        call.response.add("db_playtime", 0)
        call.response.add("db_update", 0)
    }

    /// `getvol`.
    static func getvol(_ call: MPDCall) async throws(MPDError) {
        let s = call.status()
        call.response.add("volume", s.muted ? 0 : s.volume)
    }

    /// `replay_gain_status`: previewd evens out loudness per track (EBU R128) unless started with
    /// `--normalize off`, which shows as no loudness in the status.
    static func replayGainStatus(_ call: MPDCall) async throws(MPDError) {
        call.response.add("replay_gain_mode", call.status().loudness == nil ? "off" : "track")
    }
}
