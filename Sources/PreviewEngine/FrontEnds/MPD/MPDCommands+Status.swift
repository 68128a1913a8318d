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
            let duration = s.durationMs ?? s.track.map(PreviewLength.estimateMs)
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
        if call.server.library.isRenewing { r.add("updating_db", call.server.updateJob) }
        if let error = s.error { r.add("error", error) }
        call.response.append(r)
    }

    /// `currentsong`: the current queue item as a song.
    static func currentsong(_ call: MPDCall) async throws(MPDError) {
        let s = call.status()
        guard let track = s.track, let index = s.index else { return }
        call.addSong(track, position: index, id: s.id, previewMs: s.durationMs)
    }

    /// `stats`, in MPD's order: its uptime (1 in the first second: a client that reads all zeros
    /// takes the server for Mopidy, Cantata), the time it has played, and the database's artists,
    /// albums, songs, what they play for (their previews) and when it was last renewed.
    static func stats(_ call: MPDCall) async throws(MPDError) {
        let uptime = max(1, Int((MonotonicClock.nanoseconds() - call.server.started) / 1_000_000_000))
        let database = await call.server.library.database()
        call.response.add("uptime", uptime)
        call.response.add("playtime", call.server.secondsPlayed)
        call.response.add("artists", database.count(of: .artist))
        call.response.add("albums", database.count(of: .album))
        call.response.add("songs", database.songs.count)
        call.response.add("db_playtime", database.playtimeSeconds)
        call.response.add("db_update", database.updated)
    }

    /// `getvol`.
    static func getvol(_ call: MPDCall) async throws(MPDError) {
        let s = call.status()
        call.response.add("volume", s.muted ? 0 : s.volume)
    }

    /// `replay_gain_status`: previewd evens out loudness per track (EBU R128, `--normalize`) or not.
    static func replayGainStatus(_ call: MPDCall) async throws(MPDError) {
        call.response.add("replay_gain_mode", call.status().normalization.rawValue)
    }

    /// `replay_gain_mode off|track|album|auto`: the engine's normalisation; a preview has no album
    /// gain, so album and auto mean track.
    static func replayGainMode(_ call: MPDCall) async throws(MPDError) {
        let mode: LoudnessNormalization.Mode
        switch call.argument(0) {
        case "off": mode = .off
        case "track", "album", "auto": mode = .track
        default: throw MPDError(.arg, "Unrecognized replay gain mode")
        }
        _ = try await call.perform(.setNormalization(mode))
    }

    /// `clearerror`: the error in `status` and the failed items' marks are forgotten.
    static func clearerror(_ call: MPDCall) async throws(MPDError) { _ = try await call.perform(.clearError) }

    /// `update [URI]`, `rescan [URI]`: the database is made again from what previewd has met now
    /// (no catalog call). As MPD's: the job's number, the `update` idle event as it starts and as
    /// it ends (`status` says `updating_db` meanwhile), `database` when it changed (it moves
    /// `db_update`).
    static func update(_ call: MPDCall) async throws(MPDError) {
        if let uri = call.argument(0), !uri.isEmpty, uri != "/", uri.hasPrefix("/") || uri.split(separator: "/").contains("..") {
            throw MPDError(.arg, "Malformed path")
        }
        call.server.updateJob = call.server.updateJob % Int(Int32.max) + 1
        call.response.add("updating_db", call.server.updateJob)
        let server = call.server
        let renewal = server.library.startRenewal()   // tells `database` itself when it changed
        server.changed(.update)
        Task(executorPreference: call.engine.loop) {
            _ = await renewal.value
            server.changed(.update)
        }
    }
}
