import PreviewCore

/// The device's pull: frames from the feeds into the device's buffer, and what that changes (a
/// drain, a gapless hand-over, an underrun, a fade's end). No allocation, no waiting.
extension OutputSequencerCore {
    /// Copies up to `frames` frames into `destination`: the feed (its onset faded in), then the
    /// enqueued one once the feed drains (gapless: both in the same pull); a skip's old feed fading out
    /// is mixed over the new one's first frames, and a pause's or a stop's fade-out comes first
    /// (`+Ramp`). Returns how many; fewer when paused, when the feed runs dry (`watch` asks its
    /// producer to call back; false: it has frames already) or when nothing follows a drained feed.
    /// At the end of a pause's or a stop's fade the device pauses (`out`).
    mutating func pull(into destination: UnsafeMutablePointer<Float>, frames: Int, watch: (PCMRing) -> Bool,
                       _ out: inout [SequencerAction]) -> Int {
        switch state {
        case .idle:
            return 0
        case .stopping(var s):
            // Nothing follows the fade: a resumed one (going on) is mixed over silence.
            let (got, ended): (Int, Bool)
            if case .goOn = s.fadeOut.then {
                (got, ended) = mixFadeOut(&s.fadeOut, &s.overlap, into: destination, frames: frames, over: 0, &out)
            } else {
                (got, ended) = pullFadeOut(&s.fadeOut, &s.overlap, into: destination, frames: frames, &out)
            }
            if ended { endFadeOut(s, &out) } else { state = .stopping(s) }
            return got
        case .active(var a):
            defer { state = .active(a) }
            if let fadeOut = a.fadeOut, case .goOn = fadeOut.then, fadeOut.feed !== a.current.feed {
                // A skip: the old feed's fade-out over the new one's onset.
                let got = a.paused ? 0 : pullFeeds(&a, into: destination, frames: frames, from: 0, watch: watch, &out)
                var fade = fadeOut
                let (mixed, ended) = mixFadeOut(&fade, &a.overlap, into: destination, frames: frames, over: got, &out)
                a.fadeOut = fade
                if ended { endFadeOut(&a, &out) }
                return mixed
            }
            var got = 0
            if var fade = a.fadeOut {
                let ended: Bool
                (got, ended) = pullFadeOut(&fade, &a.overlap, into: destination, frames: frames, &out)
                a.fadeOut = fade
                if ended { endFadeOut(&a, &out) }
            }
            guard !a.paused, a.fadeOut == nil else { return got }
            return pullFeeds(&a, into: destination, frames: frames, from: got, watch: watch, &out)
        }
    }

    /// The feed, then the enqueued one, into `destination` from frame `start`; returns the frames there.
    private func pullFeeds(_ a: inout Active, into destination: UnsafeMutablePointer<Float>, frames: Int, from start: Int,
                           watch: (PCMRing) -> Bool, _ out: inout [SequencerAction]) -> Int {
        var got = start
        while got < frames {
            let current = a.current.feed
            var wanted = frames - got
            if let before = prepareOverlap(&a, &out) {
                if before == 0 { continue }   // the follower is the feed now, the old one under it
                wanted = min(wanted, before)
            }
            let n = readFeed(current, into: destination + got * channels, frames: wanted, &a.overlap, &out)
            if n > 0 {
                fadeIn(&a.current, destination + got * channels, frames: n)
                if a.current.taken == 0 {
                    let now = MonotonicClock.nanoseconds()
                    a.current.startedAt = now
                    StartTimeline.shared.firstFrameHanded(decodedAt: current.firstWrittenAt, at: now)   // an atomic load unless a start is timed
                }
                a.current.taken += n
                got += n
                if a.current.starving {
                    a.current.starving = false
                    out.append(.report(.refilled(current.id)))
                }
                continue
            }
            if current.isDrained {
                if a.overlap?.incoming === current { finishOverlap(&a.overlap, &out) }   // cut short: nothing rewinds a drained feed
                if a.current.supply != .drained {
                    a.current.supply = .drained
                    out.append(.report(.drained(current.id)))
                }
                guard let next = a.queued else { break }
                // Gapless: the next track's first frames go right after this one's last.
                a.queued = nil
                begin(&a, next, &out)
                out.append(.report(.started(next.id)))
            } else {
                // The producer is behind: it calls back with its next frames (no timer meanwhile).
                guard watch(current) else { continue }
                a.current.supply = .dry
                if a.current.taken > 0, !a.current.starving {
                    a.current.starving = true
                    out.append(.report(.underrun(current.id)))
                }
                break
            }
        }
        return got
    }

    /// Makes `next` the current feed, nothing of it taken yet (a gapless follower continues its
    /// predecessor: no ramp).
    func begin(_ a: inout Active, _ next: PCMRing, _ out: inout [SequencerAction]) {
        a.current = Current(feed: next, fadeInAt: rampFrames)
        releaseOverlapIfUnread(&a, &out)
    }
}
