import PreviewCore

/// The one short ramp every onset and every stop goes through, on every output: a start, a skip's
/// new feed and a resume fade in; a pause, a skip's old feed, a stop and the fade at exit fade out.
/// A gapless hand-over does not: the follower's first frame continues its predecessor's last.
///
/// 3 ms (144 frames at 48 kHz), linear. A step from silence to a waveform, or from a waveform to
/// silence, is a click: its energy spreads across the spectrum. Spread over a ramp of length T, the
/// energy stays mostly below 1/T (333 Hz for 3 ms), and the ear hears an onset, not a click; editors
/// fade clip edges over 1–5 ms for the same reason. Shorter than about 2 ms a loud low note still
/// ticks; longer and the ramp starts to be heard as a fade (and delays what a listener hears: at
/// 3 ms, music at −20 dBFS is above −40 dBFS after 0.3 ms). Gain changes between two sounding levels
/// (a cold start's provisional gain corrected) take `PCMRing`'s own 30 ms ramp instead.
///
/// A skip crossfades: the old feed's fade-out is mixed over the new one's fade-in, so the new track is
/// at full level within the ramp. A stop must continue from what is heard, or the fade starts with a step: the device drops what
/// it holds unheard (`AudioOutput.cancel`), the feed steps back over those frames (`PCMRing.rewind`,
/// within the history it keeps), and the fade-out is pulled from there, ahead of anything else. A
/// pause then tells the device to pause (it plays what it holds, the fade, then stops) and steps the
/// feed back over the fade too, so a resume fades in from the exact frame the pause faded out at.
extension OutputSequencer {
    /// The ramp every onset and stop takes.
    public static let rampMilliseconds = 3

    /// What follows a fade-out.
    enum FadeEnd {
        /// The current feed goes on (a skip: the new feed fades in right after).
        case goOn
        /// The device pauses; the feed is kept, stepped back to where the fade began.
        case pause
        /// The device pauses with nothing kept; `done` once what it holds has been heard.
        case stop((@Sendable () -> Void)?)
    }

    /// Lock held: starts fading out what is heard now, if anything is (playing, a feed, the output
    /// there), over `frames` (the ramp by default); the caller kicks the device once its own state is
    /// set. Returns false when there is nothing to fade: the caller stops at once.
    func fadeOutLocked(then end: FadeEnd, frames: Int? = nil) -> Bool {
        guard rampFrames > 0, !paused, lostReason == nil, let current = fadingOut ?? feed,
              fadingOut != nil || (!current.isDrained && feedFramesTaken > 0) else {
            return false
        }
        if fadingOut == nil {
            // What the device drops unheard is pulled again, faded: the fade continues what was heard.
            let dropped = output.cancellableFrames
            output.cancel()
            let back = rewindFeed(current, dropped)
            if current === feed { feedFramesTaken = max(0, feedFramesTaken - back) }
            fadingOut = current
            fadeOutLength = max(1, frames ?? rampFrames)
            fadeOutLeft = fadeOutLength
        }
        fadeOutEnd = end
        return true
    }

    /// Lock held: a fade in progress is abandoned (a hard stop, the output lost); whoever waited for
    /// it is told.
    func endFadeAbruptlyLocked() {
        guard fadingOut != nil else { return }
        fadingOut = nil
        fadeOutLeft = 0
        if case .stop(let done?) = fadeOutEnd { done() }
        fadeOutEnd = .goOn
        releaseOverlapIfUnread()
    }

    /// A skip's old feed fades out while the new one fades in (both over the ramp, mixed: the new
    /// track is at full level 3 ms after the old one began to go); a pause's or a stop's fade-out
    /// comes alone, before anything else.
    var isCrossfading: Bool {
        guard let ring = fadingOut, case .goOn = fadeOutEnd else { return false }
        return ring !== feed
    }

    /// Lock held: adds the old feed's fade-out over the `got` frames of the new one at `destination`
    /// (and on past them, over silence, when the new one has fewer); returns the frames there now.
    func mixFadeOut(into destination: UnsafeMutablePointer<Float>, frames: Int, over got: Int) -> Int {
        guard let ring = fadingOut else { return got }
        let channels = output.format.channels
        let length = Float(fadeOutLength)
        var mixed = 0
        var dry = false
        while mixed < frames, fadeOutLeft > 0 {
            let n = readFeed(ring, into: crossfadeScratch, frames: min(frames - mixed, fadeOutLeft, rampFrames))
            if n == 0 { dry = true; break }   // the old one had nothing more: its sound ends here
            for i in 0..<n {
                let level = Float(fadeOutLeft - 1 - i) / length
                for c in 0..<channels {
                    let at = (mixed + i) * channels + c
                    destination[at] = (mixed + i < got ? destination[at] : 0) + crossfadeScratch[i * channels + c] * level
                }
            }
            fadeOutLeft -= n
            mixed += n
        }
        if dry || fadeOutLeft == 0 { endFadeOutLocked(ring) }
        return max(got, mixed)
    }

    /// Lock held: pulls the fade-out into `destination`; returns the frames it took. Ends the fade
    /// when it is over or its feed has nothing more to give.
    func pullFadeOut(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        guard let ring = fadingOut else { return 0 }
        let channels = output.format.channels
        var got = 0
        while got < frames, fadeOutLeft > 0 {
            let n = readFeed(ring, into: destination + got * channels, frames: min(frames - got, fadeOutLeft))
            if n == 0 { break }   // dry or drained: the sound already ends here
            let length = Float(fadeOutLength)
            for i in 0..<n {
                let level = Float(fadeOutLeft - 1 - i) / length
                for c in 0..<channels { destination[(got + i) * channels + c] *= level }
            }
            fadeOutLeft -= n
            got += n
        }
        if got < frames || fadeOutLeft == 0 { endFadeOutLocked(ring) }
        return got
    }

    /// Lock held: the fade-out is over: what was asked for follows.
    func endFadeOutLocked(_ ring: PCMRing) {
        let faded = fadeOutLength - fadeOutLeft
        fadingOut = nil
        fadeOutLeft = 0
        defer { releaseOverlapIfUnread() }
        switch fadeOutEnd {
        case .goOn:
            if ring === feed { fadeInAt = 0 }   // resumed during its fade-out: back in, from where it is
        case .pause:
            if ring === feed {
                _ = rewindFeed(ring, faded)
                fadeInAt = 0   // a resume fades in from here
            }
            output.setPaused(true)
        case .stop(let done):
            output.setPaused(true)
            if let done { output.whenHeard(done) }
        }
        fadeOutEnd = .goOn
    }

    /// Lock held: fades in the `frames` frames at `samples`, the first of the current feed's not yet
    /// faded in.
    func fadeIn(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        guard fadeInAt < rampFrames else { return }
        let channels = output.format.channels
        let length = Float(rampFrames)
        var i = 0
        while i < frames, fadeInAt < rampFrames {
            fadeInAt += 1
            let level = Float(fadeInAt) / length
            for c in 0..<channels { samples[i * channels + c] *= level }
            i += 1
        }
    }
}
