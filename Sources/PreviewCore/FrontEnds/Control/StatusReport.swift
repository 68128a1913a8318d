/// The answer to `status` (and to every transport command, after it is applied).
public struct StatusReport: Codable, Equatable, Sendable {
    /// idle, loading, playing, paused or stopped.
    public var state: PlaybackState
    /// The current queue index, 0-based, or nil.
    public var index: Int?
    /// The current queue item's id (stable across queue edits), or nil.
    public var id: Int?
    /// The queue's version: it changes with every change of the queue.
    public var queueVersion: Int = 0
    /// What has been heard of the current track, in milliseconds.
    public var positionMs: Int
    /// The current track's real duration once known (from the decoder), else the catalog's, else nil.
    public var durationMs: Int?
    /// Number of queue items.
    public var queueLength: Int
    /// The current queue item's track, with the iTunes field names.
    public var track: Track?
    /// Why the current track or the output failed, if it did.
    public var error: String?
    /// The audio output: "ok", or the reason it is not.
    public var output: String
    /// True while the current track's audio is late (a slow network); playback goes on when it comes.
    public var buffering: Bool = false
    /// Stream volume, 0–100.
    public var volume: Int = 100
    /// True when muted.
    public var muted: Bool = false
    /// off, one or all.
    public var `repeat`: RepeatMode = .off
    /// True when the play order is shuffled.
    public var shuffle: Bool = false
    /// The tracks held in memory: the current one and the prefetched neighbours.
    public var slots: [SlotReport] = []
    /// For the last command that changed the track (search, play, next, prev, seek): microseconds from
    /// its arrival to its first PCM frame handed to the audio stream; nil until that happened.
    public var switchMicroseconds: Int?
    /// The current track's measured loudness and the gain it plays at.
    public var loudness: LoudnessReport?
    /// True when `next` moves to another track (not past the end of the queue).
    public var hasNext: Bool = false
    /// The item that plays after the current one (at its end, or on `next` when single stops
    /// there) under repeat, shuffle, single and consume, by id and index; nil when none.
    public var nextId: Int?
    public var nextIndex: Int?
    /// Stop (or repeat) at the end of the current track: off, on or oneshot.
    public var single: SingleMode = .off
    /// Played items leave the queue.
    public var consume: Bool = false
    /// Seconds consecutive tracks overlap by (0: the gapless join).
    public var crossfade: Int = 0
    /// The current track is on the shortlist (the list `marked`).
    public var marked: Bool = false
    /// The format the current track is decoded to, as MPD writes it (`44100:f:2`: rate, 32-bit
    /// float samples, channels): the output's own, nothing converts it after; nil when nothing is loaded.
    public var audio: String?
    /// The current track's artwork, once fetched: the path of the cached JPEG or PNG file.
    public var artwork: String?
    /// Some output sounds; false: the one keeping the clock plays silently, its clock running
    /// (`output {"enabled": false}`).
    public var outputEnabled: Bool = true
    /// Every output, by id, each on or off (MPD's `outputs`).
    public var outputs: [OutputReport] = []
    /// Loudness normalisation: `track` or `off`.
    public var normalization: LoudnessNormalization.Mode = .track
    /// Playback holds at a track whose preview's host does not answer (the network is away):
    /// which, why, since when; nil when nothing waits. `state` stays `loading` meanwhile.
    public var waiting: NetworkWaitReport?
    /// Radio is on: previews chosen from the catalog are appended when the queue is about to end.
    public var radio: Bool = false
    /// Why radio is not adding now (the catalog did not answer, nothing new was found), or nil.
    public var radioNote: String?
    /// Why the current track came, when radio queued it ("radio: more from …"), or nil.
    public var reason: String?
    /// The quick skips counted against each radio lead ("artist:ID", "album:ID", "genre:ID").
    public var radioSkips: [String: Int] = [:]
    /// The page that plays the queue itself ("Play here"), if one does: its clock is the position.
    public var playHere: PlayHereReport?

    private enum CodingKeys: String, CodingKey {
        case state, index, id, queueVersion, positionMs, durationMs, queueLength, track, error, output
        case buffering, volume, muted, `repeat`, shuffle, slots, switchMicroseconds, loudness, hasNext, artwork
        case nextId, nextIndex, single, consume, crossfade, marked, audio, outputEnabled, outputs, normalization, waiting
        case radio, radioNote, reason, radioSkips, playHere
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        state = try c.decode(PlaybackState.self, forKey: .state)
        index = try c.decodeIfPresent(Int.self, forKey: .index)
        id = try c.decodeIfPresent(Int.self, forKey: .id)
        queueVersion = try c.decodeIfPresent(Int.self, forKey: .queueVersion) ?? 0
        positionMs = try c.decode(Int.self, forKey: .positionMs)
        durationMs = try c.decodeIfPresent(Int.self, forKey: .durationMs)
        queueLength = try c.decode(Int.self, forKey: .queueLength)
        track = try c.decodeIfPresent(Track.self, forKey: .track)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        output = try c.decode(String.self, forKey: .output)
        buffering = try c.decodeIfPresent(Bool.self, forKey: .buffering) ?? false
        volume = try c.decodeIfPresent(Int.self, forKey: .volume) ?? 100
        muted = try c.decodeIfPresent(Bool.self, forKey: .muted) ?? false
        `repeat` = try c.decodeIfPresent(RepeatMode.self, forKey: .repeat) ?? .off
        shuffle = try c.decodeIfPresent(Bool.self, forKey: .shuffle) ?? false
        slots = try c.decodeIfPresent([SlotReport].self, forKey: .slots) ?? []
        switchMicroseconds = try c.decodeIfPresent(Int.self, forKey: .switchMicroseconds)
        loudness = try c.decodeIfPresent(LoudnessReport.self, forKey: .loudness)
        hasNext = try c.decodeIfPresent(Bool.self, forKey: .hasNext) ?? false
        artwork = try c.decodeIfPresent(String.self, forKey: .artwork)
        nextId = try c.decodeIfPresent(Int.self, forKey: .nextId)
        nextIndex = try c.decodeIfPresent(Int.self, forKey: .nextIndex)
        single = try c.decodeIfPresent(SingleMode.self, forKey: .single) ?? .off
        consume = try c.decodeIfPresent(Bool.self, forKey: .consume) ?? false
        crossfade = try c.decodeIfPresent(Int.self, forKey: .crossfade) ?? 0
        marked = try c.decodeIfPresent(Bool.self, forKey: .marked) ?? false
        audio = try c.decodeIfPresent(String.self, forKey: .audio)
        outputEnabled = try c.decodeIfPresent(Bool.self, forKey: .outputEnabled) ?? true
        outputs = try c.decodeIfPresent([OutputReport].self, forKey: .outputs) ?? []
        normalization = try c.decodeIfPresent(String.self, forKey: .normalization).flatMap(LoudnessNormalization.Mode.init(rawValue:)) ?? .track
        waiting = try c.decodeIfPresent(NetworkWaitReport.self, forKey: .waiting)
        radio = try c.decodeIfPresent(Bool.self, forKey: .radio) ?? false
        radioNote = try c.decodeIfPresent(String.self, forKey: .radioNote)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        radioSkips = try c.decodeIfPresent([String: Int].self, forKey: .radioSkips) ?? [:]
        playHere = try c.decodeIfPresent(PlayHereReport.self, forKey: .playHere)
    }

    /// Encodes every key, absent values as `null`, so clients can rely on the keys being there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(index, forKey: .index)
        try c.encode(id, forKey: .id)
        try c.encode(queueVersion, forKey: .queueVersion)
        try c.encode(positionMs, forKey: .positionMs)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(queueLength, forKey: .queueLength)
        try c.encode(track, forKey: .track)
        try c.encode(error, forKey: .error)
        try c.encode(output, forKey: .output)
        try c.encode(buffering, forKey: .buffering)
        try c.encode(volume, forKey: .volume)
        try c.encode(muted, forKey: .muted)
        try c.encode(`repeat`, forKey: .repeat)
        try c.encode(shuffle, forKey: .shuffle)
        try c.encode(slots, forKey: .slots)
        try c.encode(switchMicroseconds, forKey: .switchMicroseconds)
        try c.encode(loudness, forKey: .loudness)
        try c.encode(hasNext, forKey: .hasNext)
        try c.encode(artwork, forKey: .artwork)
        try c.encode(nextId, forKey: .nextId)
        try c.encode(nextIndex, forKey: .nextIndex)
        try c.encode(single, forKey: .single)
        try c.encode(consume, forKey: .consume)
        try c.encode(crossfade, forKey: .crossfade)
        try c.encode(marked, forKey: .marked)
        try c.encode(audio, forKey: .audio)
        try c.encode(outputEnabled, forKey: .outputEnabled)
        try c.encode(outputs, forKey: .outputs)
        try c.encode(normalization.rawValue, forKey: .normalization)
        try c.encode(waiting, forKey: .waiting)
        try c.encode(radio, forKey: .radio)
        try c.encode(radioNote, forKey: .radioNote)
        try c.encode(reason, forKey: .reason)
        try c.encode(radioSkips, forKey: .radioSkips)
        try c.encode(playHere, forKey: .playHere)
    }

    /// A report with every field given.
    public init(state: PlaybackState, index: Int?, positionMs: Int, durationMs: Int?, queueLength: Int,
                track: Track?, error: String?, output: String) {
        self.state = state
        self.index = index
        self.positionMs = positionMs
        self.durationMs = durationMs
        self.queueLength = queueLength
        self.track = track
        self.error = error
        self.output = output
    }
}
