/// What `PlayerCore` knows of the output, and only that: how loud it is and whether it sounds, how
/// long consecutive tracks overlap, which load it reads, and where the sound stopped while it is
/// away. The engine's output carries these out; the core keeps them so that `status` and a
/// reconnect need not ask it.
public struct OutputState: Equatable, Sendable {
    /// The output's volume, 0–100.
    public internal(set) var volume = 100
    /// Muted (the volume is kept for when it is not).
    public internal(set) var muted = false
    /// Each output's switch, by id (MPD's `outputenabled`): fed, or not (`disableoutput N`). One
    /// output until the engine says how many it has.
    public internal(set) var switches = [true]
    /// Some output sounds; with none, the one keeping the clock plays silently, the position running.
    public var enabled: Bool { switches.contains(true) }
    /// Seconds consecutive tracks overlap by (0–15; 0: the gapless join).
    public internal(set) var crossfadeSeconds = 0
    /// The slot the output is playing (set by `play` and by the output moving on by itself).
    public internal(set) var playing: PlayerCore.SlotID?
    /// Where the sound stopped when the output went away, while it is away.
    public internal(set) var heardAtLossMs: Int?

    /// An output at full volume, sounding, with no load and no crossfade.
    public init() {}

    /// What the output is told: silent while muted or disabled.
    var silenced: Bool { muted || !enabled }

    /// Sets the volume and mute; false when neither changed.
    mutating func setVolume(_ level: Int, muted: Bool) -> Bool {
        guard (level, muted) != (volume, self.muted) else { return false }
        (volume, self.muted) = (level, muted)
        return true
    }

    /// The engine has `count` outputs, each on.
    mutating func configure(outputs count: Int) {
        switches = Array(repeating: true, count: max(1, count))
    }

    /// Turns output `id` on or off (nil toggles it), or every output when `id` is nil (nil toggles
    /// them as one: all on when none is, else all off); the ids that changed.
    mutating func setEnabled(_ on: Bool?, id: Int?) -> [Int] {
        let ids = id.map { [$0] } ?? Array(switches.indices)
        let on = on ?? (id.map { !switches[$0] } ?? !enabled)
        let changed = ids.filter { switches[$0] != on }
        for id in changed { switches[id] = on }
        return changed
    }

    /// Sets the crossfade; false when it is already `seconds`.
    mutating func setCrossfade(_ seconds: Int) -> Bool {
        guard seconds != crossfadeSeconds else { return false }
        crossfadeSeconds = seconds
        return true
    }

    /// The output reads slot `id` from now on (nil: none).
    mutating func play(_ id: PlayerCore.SlotID?) { playing = id }

    /// The output went away `heardMs` into the load that started at `startMs`: it reads nothing,
    /// and where the sound stopped is kept for its return.
    mutating func lost(heardMs: Int, startMs: Int) {
        heardAtLossMs = startMs + heardMs
        playing = nil
    }

    /// A new load starts at `startMs` (another track, a seek): while the output is away, that is
    /// where the sound goes on when it returns, not where the old load stopped.
    mutating func moved(toMs startMs: Int) {
        if heardAtLossMs != nil { heardAtLossMs = startMs }
    }

    /// The output is back: where the sound had stopped (0 when it was never lost), forgotten.
    mutating func back() -> Int {
        defer { heardAtLossMs = nil }
        return heardAtLossMs ?? 0
    }
}
