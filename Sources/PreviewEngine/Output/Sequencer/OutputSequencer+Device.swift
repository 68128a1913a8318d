import PreviewCore

/// What the device thread calls, always holding the output's lock: frames to play, and the device
/// going away and coming back.
extension OutputSequencer {
    /// True while there is a feed to play (paused or not).
    public var hasFeed: Bool { machine.hasFeed }

    /// True when the device should pull again without being kicked first
    /// (`OutputSequencerCore.expectsFrames`).
    public var expectsFrames: Bool { machine.expectsFrames }

    /// Copies up to `frames` frames into `destination` (`OutputSequencerCore.pull`). Returns how
    /// many; fewer when paused, when the feed runs dry (its producer kicks the output when frames
    /// come) or when nothing follows a drained feed. No allocation, no waiting.
    public func pull(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var actions: [SequencerAction] = []
        swap(&actions, &pullActions)   // a pull inside an action (none today) would gather its own
        let got = machine.pull(into: destination, frames: frames, watch: watch, &actions)
        for action in actions { perform(action) }
        actions.removeAll(keepingCapacity: true)
        swap(&actions, &pullActions)
        return got
    }

    /// Asks `feed`'s producer to call back when it has frames; false when it has some already.
    private func watch(_ feed: PCMRing) -> Bool {
        let dry = ObjectIdentifier(feed)
        return feed.whenReadable { [weak self] in self?.feedBecameReadable(dry) }
    }

    /// The output went away or could not be reached (called on every failed attempt, `why` each time):
    /// the loss is reported once, with what had been heard, and the feeds are dropped. Call before the
    /// output forgets what it held, so the delay still counts.
    public func outputLost(_ why: String) {
        perform(machine.outputLost(why, delay: { output.delayFrames }))
    }

    /// The output is ready (connected). After a loss the player is told, and starts again from where
    /// the sound stopped; on a first connection, a waiting feed simply plays.
    public func outputRestored() {
        perform(machine.outputRestored())
    }

    /// A feed that had run dry has frames again, or has finished (called on its producer's thread).
    private func feedBecameReadable(_ dry: ObjectIdentifier) {
        output.withLock { perform(machine.feedBecameReadable(dry)) }
    }
}
