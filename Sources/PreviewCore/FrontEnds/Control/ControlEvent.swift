/// What a subscribed connection receives, one JSON object per line: `{"event": "state", ...}`.
public enum ControlEvent: Equatable, Sendable {
    /// The playback state or the current index changed (`id`: the current queue item's).
    case state(PlaybackState, index: Int?, id: Int? = nil)
    /// Another track became current (queue item `id` at `index`); `loudness` as far as it is known then.
    case track(index: Int, id: Int, Track, loudness: LoudnessReport? = nil)
    /// What is known of the current track's loudness changed: its gain was decided, or it was measured.
    case loudness(index: Int, LoudnessReport, id: Int? = nil)
    /// The queue was replaced, appended to or edited: its new length and version.
    case queue(length: Int, version: Int)
    /// A track or a catalog call failed.
    case error(String)
    /// The audio output went away (why) or came back.
    case outputLost(String)
    case outputBack
    /// Output `id` was turned on or off (the last one off: it plays silently, its clock running).
    case outputEnabled(Bool, id: Int = 0)
    /// Loudness normalisation was set per track or off.
    case normalization(LoudnessNormalization.Mode)
    /// Volume or mute changed.
    case volume(Int, muted: Bool)
    /// The crossfade changed: consecutive tracks overlap by this many seconds (0: none).
    case crossfade(Int)
    /// Repeat, shuffle, single or consume changed.
    case modes(PlaybackModes)
    /// The current track jumped to a position: a seek, or it started again (prev, repeat one).
    case seeked(index: Int, ms: Int, id: Int? = nil)
    /// The current track's artwork was fetched: the path of the cached image.
    case artwork(index: Int, path: String, id: Int? = nil)
    /// Where the current track is (sent every second when asked for).
    case position(ms: Int, durationMs: Int?)
    /// The current track's audio ran late (the network is slow: the output went dry), or flows again.
    case buffering(Bool)
    /// Playback holds at a track whose preview's host does not answer (the network is away), or
    /// (nil) no longer does: the track plays, or playback moved elsewhere.
    case waiting(NetworkWaitReport?)
    /// A saved list was saved, changed, renamed or forgotten (the shortlist included).
    case lists
    /// What previewd has met changed (`library`): a catalog answer brought tracks it had not seen,
    /// or the latest chart or a recent search changed.
    case library
    /// Which page plays the queue itself now ("Play here"), or none (nil): the box's outputs play.
    case playHere(PlayHereReport?)
}

/// Events are written straight from their cases: `{"event": "state", "state": "playing", "index": 0}`.
extension ControlEvent: Encodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        func put(_ name: String, _ value: some Encodable) throws { try c.encode(value, forKey: Key(name)) }
        switch self {
        case .state(let state, let index, let id):
            try put("event", "state"); try put("state", state.rawValue); try put("index", index); try c.encodeIfPresent(id, forKey: Key("id"))
        case .track(let index, let id, let track, let loudness):
            try put("event", "track"); try put("index", index); try put("id", id); try put("track", track); try put("loudness", loudness)
        case .loudness(let index, let loudness, let id):
            try put("event", "loudness"); try put("index", index); try c.encodeIfPresent(id, forKey: Key("id")); try put("loudness", loudness)
        case .queue(let length, let version):
            try put("event", "queue"); try put("length", length); try put("version", version)
        case .error(let message):
            try put("event", "error"); try put("message", message)
        case .outputLost(let why):
            try put("event", "output"); try put("state", "lost"); try put("reason", why)
        case .outputBack:
            try put("event", "output"); try put("state", "ok")
        case .outputEnabled(let on, let id):
            try put("event", "output"); try put("state", on ? "enabled" : "disabled"); try put("id", id)
        case .normalization(let mode):
            try put("event", "normalization"); try put("mode", mode.rawValue)
        case .volume(let level, let muted):
            try put("event", "volume"); try put("volume", level); try put("muted", muted)
        case .crossfade(let seconds):
            try put("event", "crossfade"); try put("seconds", seconds)
        case .modes(let modes):
            try put("event", "modes"); try put("repeat", modes.repeat.rawValue); try put("shuffle", modes.shuffle)
            try put("single", modes.single.rawValue); try put("consume", modes.consume)
        case .seeked(let index, let ms, let id):
            try put("event", "seeked"); try put("index", index); try c.encodeIfPresent(id, forKey: Key("id")); try put("positionMs", ms)
        case .playHere(let report):
            try put("event", "playhere"); try put("playHere", report)
        case .artwork(let index, let path, let id):
            try put("event", "artwork"); try put("index", index); try c.encodeIfPresent(id, forKey: Key("id")); try put("path", path)
        case .buffering(let on):
            try put("event", "buffering"); try put("buffering", on)
        case .waiting(let report):
            try put("event", "waiting"); try put("waiting", report)
        case .lists:
            try put("event", "lists")
        case .library:
            try put("event", "library")
        case .position(let ms, let duration):
            try put("event", "position"); try put("positionMs", ms); try put("durationMs", duration)
        }
    }
}
