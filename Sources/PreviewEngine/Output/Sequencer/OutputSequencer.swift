import PreviewCore

/// Everything between the player and a device that is not the device (MPD's `AudioOutputControl`):
/// the current feed and the enqueued one, the gapless hand-over, drain/started/underrun/refilled
/// events, the position heard, skip, stop, pause, and loss and restoration of the output. The device
/// (`AudioOutput`) pulls frames from it on its own thread (`OutputSequencer+Device.swift`).
///
/// Every field is guarded by the output's lock (`output.withLock`), which the device thread holds
/// whenever it pulls; events are sent with it held, on whichever thread caused them. Nothing here
/// blocks the caller long; feeds are told apart by their load's id (`PCMRing.id`).
public final class OutputSequencer {
    /// The device.
    public let output: any AudioOutput
    var feed: PCMRing?
    /// Plays right after `feed` drains, in the same pull.
    var queued: PCMRing?
    var paused = true
    /// Frames of `feed` pulled, and when its first one was.
    var feedFramesTaken = 0
    var feedStartedAt: UInt64?
    var drainReported = false
    /// An underrun was reported; `refilled` is owed.
    var starving = false
    /// The feed was found dry and its producer will call back (`whenReadable`).
    var waitingForFrames = false
    /// `.lost` was sent and `.restored` is owed; `lostReason` says why there is no output now.
    var lossReported = false
    var lostReason: String?
    var eventHandler: (@Sendable (OutputEvent) -> Void)?
    /// Frames of the short ramp every onset and stop takes (`OutputSequencer+Ramp.swift`); 0: none.
    let rampFrames: Int
    /// A feed fading out ahead of anything else (a skip's old feed, or the current one at a pause or a
    /// stop), the frames of its fade, those left, and what follows.
    var fadingOut: PCMRing?
    var fadeOutLength = 0
    var fadeOutLeft = 0
    var fadeOutEnd = FadeEnd.goOn
    /// Frames of the current feed's fade-in done; `rampFrames` when none is due.
    var fadeInAt = 0
    /// A skip's old feed is read here before it is mixed over the new one (a ramp's worth, allocated once).
    let crossfadeScratch: UnsafeMutablePointer<Float>
    /// Frames consecutive tracks overlap by at the end of the first (0: the gapless join), and the
    /// overlap in progress (`OutputSequencer+Crossfade.swift`); its old feed is read here.
    var crossfadeFrames = 0
    var overlap: Overlap?
    let overlapScratch: UnsafeMutablePointer<Float>

    /// A sequencer feeding `output`, every onset and stop ramped over `rampMilliseconds` (0: none,
    /// for tests of the sequencing alone).
    public init(output: any AudioOutput, rampMilliseconds: Int = OutputSequencer.rampMilliseconds) {
        self.output = output
        rampFrames = output.format.frames(milliseconds: rampMilliseconds)
        crossfadeScratch = .allocate(capacity: max(1, rampFrames * output.format.channels))
        overlapScratch = .allocate(capacity: Self.overlapChunkFrames * output.format.channels)
        output.attach(self)
    }

    deinit {
        crossfadeScratch.deallocate()
        overlapScratch.deallocate()
    }

    /// The PCM format the output takes; decoders produce exactly this (the output chose it at start).
    public var format: PCMFormat { output.format }

    /// Called (from the output's thread, or the caller's) when something happens the player must know.
    public func setEventHandler(_ handler: @escaping @Sendable (OutputEvent) -> Void) {
        output.withLock { eventHandler = handler }
    }

    /// Plays `next` now; paused when `paused`. If the previous feed still had audio to play (a skip),
    /// that audio is dropped, not heard; if it had ended by itself, `next` follows it with no gap.
    /// Playing the feed that is already current only sets the pause. Never waits for the device:
    /// when there is none (yet), the sequencer reports `.lost` and later `.restored`.
    public func play(_ next: PCMRing, paused: Bool) {
        checkFormat(of: next)
        output.withLock {
            let end = paused ? FadeEnd.pause : .goOn
            if feed !== next {
                // A skip fades out what is heard and drops the rest the device holds, so the old track
                // is not heard after the command. When the old feed ended by itself, its last frames
                // are still playing: the next follows them with no gap.
                if fadingOut != nil {
                    fadeOutEnd = end
                } else if !(feed?.isDrained ?? true), !fadeOutLocked(then: end) {
                    output.cancel()
                }
                begin(next)
                fadeInAt = 0
            } else if fadingOut != nil {
                fadeOutEnd = end
            }
            if queued === next { queued = nil }
            self.paused = paused
            output.kick()   // before un-pausing: the device has frames when the sound starts
            // A fade in progress pauses the device once it is pulled.
            if !(paused && fadingOut != nil) { output.setPaused(paused) }
        }
    }

    /// Plays `next` right after the current feed drains, in the same stream (gapless); nil cancels.
    public func enqueue(_ next: PCMRing?) {
        if let next { checkFormat(of: next) }
        output.withLock {
            queued = next
            // The current feed may already be drained and waiting: start the next one now.
            if next != nil, feed?.isDrained ?? false { output.kick() }
        }
    }

    /// Sound stops at once, nothing is lost.
    public func pause() {
        output.withLock {
            let fading = fadeOutLocked(then: .pause)
            paused = true
            if fading { output.kick() } else { output.setPaused(true) }   // the fade's end pauses the device
        }
    }

    /// Sound goes on from where it stopped.
    public func resume() {
        output.withLock {
            paused = false
            if fadingOut != nil { fadeOutEnd = .goOn }   // the fade ends, then the feed fades in again
            if feed != nil { output.kick() }
            output.setPaused(false)
        }
    }

    /// Drops what the device holds, pauses and forgets the feeds. A feed that ended by itself (the
    /// queue's end) is not cut: its last frames, which the device holds, are heard to the end first.
    public func stop() {
        output.withLock {
            if let feed, feed.isDrained, queued == nil, fadingOut == nil, overlap == nil, lostReason == nil {
                return stopWhenHeardLocked()
            }
            guard fadeOutLocked(then: .stop(nil)) else { return stopLocked() }
            dropFeeds()
            paused = true
            output.kick()
        }
    }

    /// Brings the sound down to silence over about `milliseconds`, then stops (at exit: no click).
    /// Never waits: `done` is called (on any thread) once the sound is down and the feeds stopped.
    public func fadeOutAndStop(milliseconds: Int, then done: @escaping @Sendable () -> Void) {
        output.withLock {
            // The same fade-out as a stop, longer; `done` once the device has played it.
            guard rampFrames > 0, fadeOutLocked(then: .stop(done), frames: output.format.frames(milliseconds: milliseconds)) else {
                stopLocked()
                return done()
            }
            dropFeeds()
            paused = true
            output.kick()
        }
    }

    /// Frames of the current feed that have been heard (taken minus what is still in the device).
    public var playedFrames: Int {
        output.withLock { heardFramesLocked() }
    }

    /// The id of the feed being played, if any.
    public var currentFeed: UInt64? {
        output.withLock { feed?.id }
    }

    /// When the current feed's first frame was handed to the device (CLOCK_MONOTONIC, ns).
    public var currentFeedStartedAt: UInt64? {
        output.withLock { feedFramesTaken > 0 ? feedStartedAt : nil }
    }

    /// "ok", or why there is no output.
    public var statusText: String {
        output.withLock { lostReason ?? "ok" }
    }

    /// Volume, 0–100 % of the normal level, and mute. Kept across reconnections.
    public func setVolume(_ percent: Int, muted: Bool) {
        output.setVolume(min(100, max(0, percent)), muted: muted)
    }

    /// What desktop mixers show for the stream.
    public func setMetadata(title: String?, artist: String?) {
        output.setMetadata(title: title, artist: artist)
    }

    /// Releases the device; the sequencer is unusable afterwards.
    public func close() {
        output.close()
    }

    /// A feed decoded for another format would be read wrong (its frames split across channels, or
    /// played at the wrong speed): a bug in the caller, stopped here with what differs.
    private func checkFormat(of feed: PCMRing) {
        precondition(feed.format == output.format, "feed \(feed.id) is \(feed.format), the output takes \(output.format)")
    }

    // MARK: Lock held

    /// Makes `next` the current feed, nothing of it taken yet.
    func begin(_ next: PCMRing) {
        feed = next
        feedFramesTaken = 0
        feedStartedAt = nil
        fadeInAt = rampFrames   // a gapless follower continues its predecessor: no ramp
        drainReported = false
        starving = false
        waitingForFrames = false
        releaseOverlapIfUnread()
    }

    /// Lock held: the device plays what it holds (as at a pause), then drops whatever is left
    /// unplayed (an output that cannot wait for it does so at once), unless a feed came meanwhile.
    func stopWhenHeardLocked() {
        dropFeeds()
        paused = true
        output.setPaused(true)
        output.whenHeard { [weak self] in if let self, feed == nil { output.cancel() } }
    }

    /// Silence now: what the device holds is dropped, the feeds forgotten.
    func stopLocked() {
        output.cancel()
        endFadeAbruptlyLocked()
        dropFeeds()
        paused = true
        output.setPaused(true)
    }

    func dropFeeds() {
        feed = nil
        queued = nil
        feedFramesTaken = 0
        waitingForFrames = false
        releaseOverlapIfUnread()
    }

    /// Frames of the current feed heard: taken from it minus what the device still holds.
    func heardFramesLocked() -> Int {
        guard feed != nil else { return 0 }
        return max(0, feedFramesTaken - output.delayFrames)
    }
}

// Every mutable field is guarded by the output's lock (see the type's comment).
extension OutputSequencer: @unchecked Sendable {}
