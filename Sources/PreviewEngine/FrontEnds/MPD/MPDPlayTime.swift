import PreviewCore

/// How long previewd has played since it started (MPD's `stats` `playtime`), from the engine's
/// `state` events: the time spent playing, not paused, stopped or loading.
struct MPDPlayTime {
    private var playedNs: UInt64 = 0
    /// When the current playing began (monotonic nanoseconds); nil while not playing.
    private var since: UInt64?

    /// The player is now in `state` (at `now`).
    mutating func state(_ state: PlaybackState, now: UInt64) {
        if let since { playedNs += now - since }
        since = state == .playing ? now : nil
    }

    /// Whole seconds played until `now`.
    func seconds(now: UInt64) -> Int {
        Int((playedNs + (since.map { now - $0 } ?? 0)) / 1_000_000_000)
    }
}
