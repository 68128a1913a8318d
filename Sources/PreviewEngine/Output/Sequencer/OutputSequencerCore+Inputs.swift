import PreviewCore

/// The inputs from outside the device's pull: the player's commands, the device's loss and
/// restoration, a dry feed's producer calling back. Each returns its actions in order.
extension OutputSequencerCore {
    /// Plays `next` now; paused when `paused`. If the current feed still had audio to play (a skip),
    /// it fades out over the new one's onset and the device drops the rest; if it had ended by
    /// itself, its last frames are still playing and `next` follows them with no gap. Playing the
    /// feed that is already current only sets the pause. `cancellable`: the frames the device would
    /// drop now.
    mutating func play(_ next: PCMRing, paused: Bool, cancellable: () -> Int) -> [SequencerAction] {
        var out: [SequencerAction] = []
        let end = paused ? FadeEnd.pause : .goOn
        var a: Active
        switch state {
        case .idle(let queued):
            a = Active(current: Current(feed: next, fadeInAt: 0), queued: queued, paused: paused)
        case .stopping(var s):
            s.fadeOut.then = end
            a = Active(current: Current(feed: next, fadeInAt: 0), queued: s.queued, paused: paused,
                       fadeOut: s.fadeOut, overlap: s.overlap)
            releaseOverlapIfUnread(&a, &out)
        case .active(let was):
            a = was
            if a.current.feed !== next {
                if a.fadeOut != nil {
                    a.fadeOut?.then = end
                } else if !a.current.feed.isDrained, !beginFadeOut(&a, then: end, cancellable: cancellable, &out) {
                    out.append(.cancel)
                }
                a.current = Current(feed: next, fadeInAt: 0)
                releaseOverlapIfUnread(&a, &out)
            } else if a.fadeOut != nil {
                a.fadeOut?.then = end
            }
            a.paused = paused
        }
        if a.queued === next { a.queued = nil }
        state = .active(a)
        out.append(.kick)   // before un-pausing: the device has frames when the sound starts
        // A fade in progress pauses the device once it is pulled.
        if !(paused && a.fadeOut != nil) { out.append(.setPaused(paused)) }
        return out
    }

    /// Plays `next` right after the current feed drains, in the same stream (gapless); nil cancels.
    mutating func enqueue(_ next: PCMRing?) -> [SequencerAction] {
        switch state {
        case .idle:
            state = .idle(queued: next)
        case .stopping(var s):
            s.queued = next
            state = .stopping(s)
        case .active(var a):
            a.queued = next
            state = .active(a)
            // The current feed may already be drained and waiting: start the next one now.
            if next != nil, a.current.feed.isDrained { return [.kick] }
        }
        return []
    }

    /// Sound stops at once (after the ramp's fade-out), nothing is lost.
    mutating func pause(cancellable: () -> Int) -> [SequencerAction] {
        guard case .active(var a) = state else {
            // Nothing heard to fade (a stop's fade already pauses the device at its end).
            if case .stopping(var s) = state, !s.paused, fade(&s.fadeOut, then: .pause) {
                s.paused = true
                state = .stopping(s)
                return [.kick]
            }
            return [.setPaused(true)]
        }
        var out: [SequencerAction] = []
        let fading = beginFadeOut(&a, then: .pause, cancellable: cancellable, &out)
        a.paused = true
        state = .active(a)
        out.append(fading ? .kick : .setPaused(true))   // the fade's end pauses the device
        return out
    }

    /// Sound goes on from where it stopped.
    mutating func resume() -> [SequencerAction] {
        switch state {
        case .idle:
            return [.setPaused(false)]
        case .stopping(var s):
            s.paused = false
            s.fadeOut.then = .goOn
            state = .stopping(s)
            return [.setPaused(false)]
        case .active(var a):
            a.paused = false
            a.fadeOut?.then = .goOn   // the fade ends, then the feed fades in again
            state = .active(a)
            return [.kick, .setPaused(false)]
        }
    }

    /// Drops what the device holds, pauses and forgets the feeds. A feed that ended by itself (the
    /// queue's end) is not cut: its last frames, which the device holds, are heard to the end first.
    mutating func stop(cancellable: () -> Int) -> [SequencerAction] {
        var out: [SequencerAction] = []
        if case .active(let a) = state, a.endedByItself, link == .up {
            // Ran out by itself: the device plays what it holds (as at a pause), then drops the rest.
            state = .idle(queued: nil)
            return [.setPaused(true), .dropWhenHeard]
        }
        guard fadeOutThenStop(done: nil, frames: nil, cancellable: cancellable, &out) else {
            stopNow(&out)
            return out
        }
        out.append(.kick)
        return out
    }

    /// Brings the sound down to silence over `frames`, then stops (at exit: no click); `done` once
    /// the sound is down and the feeds stopped.
    mutating func fadeOutAndStop(frames: Int, then done: @escaping @Sendable () -> Void, cancellable: () -> Int) -> [SequencerAction] {
        var out: [SequencerAction] = []
        guard rampFrames > 0, fadeOutThenStop(done: done, frames: frames, cancellable: cancellable, &out) else {
            stopNow(&out)
            out.append(.call(done))
            return out
        }
        out.append(.kick)
        return out
    }

    /// The output went away or could not be reached (on every failed attempt, `why` each time): the
    /// loss is reported once, with what had been heard (`delay`: frames the device still held), and
    /// the feeds are dropped. A feed played while the output is away waits for its restoration.
    mutating func outputLost(_ why: String, delay: () -> Int) -> [SequencerAction] {
        var out: [SequencerAction] = []
        let first = link == .up
        link = .lost(why)
        endFadeAbruptly(&out)
        guard first else { return out }
        let heard = heardFrames(delay: delay)
        drop(&out)
        out.append(.report(.lost(why, heardFrames: heard)))
        return out
    }

    /// The output is ready (connected). After a loss the player is told, and starts again from
    /// where the sound stopped; on a first connection, a waiting feed simply plays.
    mutating func outputRestored() -> [SequencerAction] {
        guard case .lost = link else { return [] }
        link = .up
        var out: [SequencerAction] = []
        endFadeAbruptly(&out)
        drop(&out)
        out.append(.report(.restored))
        return out
    }

    /// A feed that had run dry has frames again, or has finished (its producer calls back).
    mutating func feedBecameReadable(_ feed: ObjectIdentifier) -> [SequencerAction] {
        guard case .active(var a) = state, ObjectIdentifier(a.current.feed) == feed else { return [] }   // skipped meanwhile
        if a.current.supply == .dry { a.current.supply = .flowing }
        state = .active(a)
        return [.kick]
    }

    // MARK: Queries

    /// True while there is a feed to play (paused or not), or a fade to finish.
    var hasFeed: Bool {
        if case .idle = state { return false }
        return true
    }

    /// The current feed, if any.
    var current: Current? {
        if case .active(let a) = state { return a.current }
        return nil
    }

    /// The overlap under way, wherever it is.
    var overlap: Overlap? {
        switch state {
        case .idle: return nil
        case .active(let a): return a.overlap
        case .stopping(let s): return s.overlap
        }
    }

    /// True when the device should pull again without being kicked first: a fade to finish, or
    /// playing a feed that is neither dry (its producer calls back) nor drained and reported with
    /// nothing after it (`enqueue` kicks). A feed whose last frame was pulled exactly is not
    /// reported drained until the next pull.
    var expectsFrames: Bool {
        switch state {
        case .idle: return false
        case .stopping: return true
        case .active(let a):
            if a.fadeOut != nil { return true }
            guard !a.paused, a.current.supply != .dry else { return false }
            return !a.current.feed.isDrained || a.current.supply != .drained || a.queued != nil
        }
    }

    /// Frames of the current feed heard: taken from it minus what the device still holds (`delay`),
    /// never fewer than were reported before (a pause's cancel lowers `taken` at once, while a
    /// device such as PulseAudio tells its smaller delay only at its next timing update).
    mutating func heardFrames(delay: () -> Int) -> Int {
        guard case .active(var a) = state else { return 0 }
        a.current.heard = max(a.current.heard, a.current.taken - delay())
        state = .active(a)
        return a.current.heard
    }

    /// "ok", or why there is no output.
    var statusText: String {
        if case .lost(let why) = link { return why }
        return "ok"
    }

    // MARK: Transitions shared by the inputs

    /// A stop's fade-out begins (or a fade under way ends in a stop), and the feeds are forgotten;
    /// false when there is nothing to fade.
    private mutating func fadeOutThenStop(done: (@Sendable () -> Void)?, frames: Int?, cancellable: () -> Int,
                                          _ out: inout [SequencerAction]) -> Bool {
        switch state {
        case .idle:
            return false
        case .stopping(var s):
            guard !s.paused, fade(&s.fadeOut, then: .stop(done)) else { return false }
            s.paused = true
            s.queued = nil
            state = .stopping(s)
            return true
        case .active(var a):
            guard beginFadeOut(&a, then: .stop(done), frames: frames, cancellable: cancellable, &out), let fadeOut = a.fadeOut else {
                return false
            }
            var s = Stopping(fadeOut: fadeOut, overlap: a.overlap, paused: true)
            releaseOverlapIfUnread(&s, &out)
            state = .stopping(s)
            return true
        }
    }

    /// Silence now: what the device holds is dropped, the feeds forgotten.
    private mutating func stopNow(_ out: inout [SequencerAction]) {
        out.append(.cancel)
        endFadeAbruptly(&out)
        drop(&out)
        out.append(.setPaused(true))
    }

    /// The feeds are forgotten (a fade under way is not: end it first).
    private mutating func drop(_ out: inout [SequencerAction]) {
        switch state {
        case .idle:
            state = .idle(queued: nil)
        case .stopping(var s):
            s.queued = nil
            state = .stopping(s)
        case .active(let a):
            if let fadeOut = a.fadeOut {
                var s = Stopping(fadeOut: fadeOut, overlap: a.overlap, paused: a.paused)
                releaseOverlapIfUnread(&s, &out)
                state = .stopping(s)
            } else {
                if let o = a.overlap { out.append(.report(.faded(o.outgoing.id))) }
                state = .idle(queued: nil)
            }
        }
    }

    /// A fade in progress is abandoned (a hard stop, the output lost); whoever waited for it is told.
    private mutating func endFadeAbruptly(_ out: inout [SequencerAction]) {
        switch state {
        case .idle:
            return
        case .stopping(let s):
            if case .stop(let done?) = s.fadeOut.then { out.append(.call(done)) }
            if let o = s.overlap { out.append(.report(.faded(o.outgoing.id))) }
            state = .idle(queued: s.queued)
        case .active(var a):
            guard let fadeOut = a.fadeOut else { return }
            if case .stop(let done?) = fadeOut.then { out.append(.call(done)) }
            a.fadeOut = nil
            releaseOverlapIfUnread(&a, &out)
            state = .active(a)
        }
    }
}
