/// "Play here" in the core (`PageClock`): while a page keeps the clock, the box's copy of the
/// track never advances the queue by itself. The page's end does, fed as `.trackEnded` by the
/// player (a natural end: single stops, repeat one plays the track again).
///
/// Why the box waits at the end of its copy rather than never running ahead: its output's clock
/// is the sound card's, the page's is the phone's, and nothing slaves one to the other short of
/// resampling; so the box decodes and plays (silent in "here only", moved to the page's clock
/// once a track) and, if it reaches the end first, stands there, its sound stopped, until the page
/// ends too. In "here and on the speakers" the speakers are silent for that moment (the drift,
/// at most a resync's 150 ms once moved) and start the next track with the page: they never cut
/// the page's track nor begin it again.
extension PlayerCore {
    /// A page keeps the clock (true) or no longer does (gone, let go: false). When the box's copy
    /// ended meanwhile, that end counts now (the track ended, as it would have), or, paused, at
    /// the resume (`countHeldEnd`).
    public mutating func pageKeepsClock(_ keeps: Bool) -> [Effect] {
        (try? command { core, _ in core.pageClock.kept = keeps }) ?? []
    }

    /// After every command and event: a box's end held for a page that no longer keeps the clock
    /// counts once playback plays (a load left meanwhile, by a seek or a skip, forgets it).
    mutating func countHeldEnd(into effects: inout [Effect]) {
        guard !pageClock.kept, let held = pageClock.heldEnd else { return }
        guard held == current?.id else { pageClock.heldEnd = nil; return }
        guard transport.playbackState == .playing else { return }   // paused at the box's end: counted at the resume
        pageClock.heldEnd = nil
        try? feed(.trackEnded, into: &effects)
    }

    /// The output played every frame of the current load: the track ended, unless a page keeps the
    /// clock (then the end waits for the page's).
    mutating func boxEnded(_ id: SlotID, into effects: inout [Effect]) {
        guard current?.id == id else { return }
        if pageClock.kept {
            pageClock.heldEnd = id
        } else {
            try? feed(.trackEnded, into: &effects)
        }
    }

    /// The output moved into a follower by itself: one handed over before the page claimed the
    /// clock, taken in the same moment. The box has left the track: its held end counts first,
    /// as `drained` would have made it, so the transport follows the output.
    mutating func outputMovedOn(to id: SlotID, into effects: inout [Effect]) {
        guard let held = pageClock.heldEnd, held == current?.id, id != held else { return }
        pageClock.heldEnd = nil
        try? feed(.trackEnded, into: &effects)
    }
}
