import PreviewCore

/// What the device thread calls, always holding the output's lock: frames to play, and the device
/// going away and coming back.
extension OutputSequencer {
    /// True while there is a feed to play (paused or not).
    public var hasFeed: Bool { feed != nil || fadingOut != nil }

    /// True when the device should pull again without being kicked first: playing, and the feed
    /// neither dry (its producer calls back) nor drained and reported with nothing after it (`enqueue`
    /// kicks). A feed whose last frame was pulled exactly is not reported drained until the next pull.
    public var expectsFrames: Bool {
        if fadingOut != nil { return true }
        guard !paused, let feed, !waitingForFrames else { return false }
        return !feed.isDrained || !drainReported || queued != nil
    }

    /// Copies up to `frames` frames into `destination`: the feed (its onset faded in), then the
    /// enqueued one once the feed drains (gapless: both in the same pull); a skip's old feed fading out
    /// is mixed over the new one's first frames, and a pause's or a stop's fade-out comes first
    /// (`OutputSequencer+Ramp.swift`). Returns how many; fewer when paused, when the feed runs dry (its
    /// producer kicks the output when frames come) or when nothing follows a drained feed. No
    /// allocation, no waiting. At the end of a pause's or a stop's fade it pauses the device.
    public func pull(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        if fadingOut != nil, isCrossfading {
            let got = paused ? 0 : pullFeeds(into: destination, frames: frames, from: 0)
            return mixFadeOut(into: destination, frames: frames, over: got)
        }
        let got = fadingOut == nil ? 0 : pullFadeOut(into: destination, frames: frames)
        guard !paused, fadingOut == nil else { return got }
        return pullFeeds(into: destination, frames: frames, from: got)
    }

    /// The feed, then the enqueued one, into `destination` from frame `start`; returns the frames there.
    private func pullFeeds(into destination: UnsafeMutablePointer<Float>, frames: Int, from start: Int) -> Int {
        var got = start
        let channels = output.format.channels
        while got < frames, let current = feed {
            var wanted = frames - got
            if let before = prepareOverlap(current) {
                if before == 0 { continue }   // the follower is the feed now, the old one under it
                wanted = min(wanted, before)
            }
            let n = readFeed(current, into: destination + got * channels, frames: wanted)
            if n > 0 {
                fadeIn(destination + got * channels, frames: n)
                if feedFramesTaken == 0 {
                    let now = MonotonicClock.nanoseconds()
                    feedStartedAt = now
                    StartTimeline.shared.firstFrameHanded(decodedAt: current.firstWrittenAt, at: now)   // an atomic load unless a start is timed
                }
                feedFramesTaken += n
                got += n
                if starving { starving = false; eventHandler?(.refilled(current.id)) }
                continue
            }
            if current.isDrained {
                if overlap?.incoming === current { finishOverlap() }   // cut short: nothing rewinds a drained feed
                if !drainReported {
                    drainReported = true
                    eventHandler?(.drained(current.id))
                }
                guard let next = queued else { break }
                // Gapless: the next track's first frames go right after this one's last.
                queued = nil
                begin(next)
                eventHandler?(.started(next.id))
            } else {
                // The producer is behind: it calls back with its next frames (no timer meanwhile).
                let dry = ObjectIdentifier(current)
                guard current.whenReadable({ [weak self] in self?.feedBecameReadable(dry) }) else { continue }
                waitingForFrames = true
                if feedFramesTaken > 0, !starving {
                    starving = true
                    eventHandler?(.underrun(current.id))
                }
                break
            }
        }
        return got
    }

    /// The output went away or could not be reached (called on every failed attempt, `why` each time):
    /// the loss is reported once, with what had been heard, and the feeds are dropped. Call before the
    /// output forgets what it held, so the delay still counts.
    public func outputLost(_ why: String) {
        lostReason = why
        endFadeAbruptlyLocked()
        guard !lossReported else { return }
        lossReported = true
        let heard = heardFramesLocked()
        dropFeeds()
        eventHandler?(.lost(why, heardFrames: heard))
    }

    /// The output is ready (connected). After a loss the player is told, and starts again from where
    /// the sound stopped; on a first connection, a waiting feed simply plays.
    public func outputRestored() {
        lostReason = nil
        guard lossReported else { return }
        lossReported = false
        endFadeAbruptlyLocked()
        dropFeeds()
        eventHandler?(.restored)
    }

    /// A feed that had run dry has frames again, or has finished (called on its producer's thread).
    private func feedBecameReadable(_ dry: ObjectIdentifier) {
        output.withLock {
            guard let feed, ObjectIdentifier(feed) == dry else { return }   // skipped meanwhile
            waitingForFrames = false
            output.kick()
        }
    }
}
