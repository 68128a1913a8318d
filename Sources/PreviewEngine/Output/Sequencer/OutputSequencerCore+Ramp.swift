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
/// at full level within the ramp. A stop must continue from what is heard, or the fade starts with a
/// step: the device drops what it holds unheard (`AudioOutput.cancel`), the feed steps back over those
/// frames (`PCMRing.rewind`, within the history it keeps), and the fade-out is pulled from there, ahead
/// of anything else. A pause then tells the device to pause (it plays what it holds, the fade, then
/// stops) and steps the feed back over the fade too, so a resume fades in from the exact frame the
/// pause faded out at.
extension OutputSequencerCore {
    /// Starts fading out what is heard now, if anything is (playing, a feed, the output there), over
    /// `frames` (the ramp by default), or makes a fade under way end in `end`; the device is told to
    /// drop what it holds (`cancellable()` frames, pulled again faded). False when there is nothing
    /// to fade: the caller stops at once.
    func beginFadeOut(_ a: inout Active, then end: FadeEnd, frames: Int? = nil, cancellable: () -> Int,
                      _ out: inout [SequencerAction]) -> Bool {
        guard rampFrames > 0, !a.paused, link == .up else { return false }
        if a.fadeOut != nil {
            a.fadeOut?.then = end
            return true
        }
        guard !a.current.feed.isDrained, a.current.taken > 0 else { return false }
        // What the device drops unheard is pulled again, faded: the fade continues what was heard.
        let dropped = cancellable()
        out.append(.cancel)
        let back = rewindFeed(a.current.feed, dropped, &a.overlap)
        a.current.taken = max(0, a.current.taken - back)
        let length = max(1, frames ?? rampFrames)
        a.fadeOut = FadeOut(feed: a.current.feed, length: length, left: length, then: end)
        return true
    }

    /// A fade under way (a stop's) ends in `end` instead; false when fades are off or the output away.
    func fade(_ fadeOut: inout FadeOut, then end: FadeEnd) -> Bool {
        guard rampFrames > 0, link == .up else { return false }
        fadeOut.then = end
        return true
    }

    /// Adds the fade-out over the `got` frames of the new feed at `destination` (and on past them,
    /// over silence, when the new one has fewer); returns the frames there now, and whether the fade
    /// is over.
    func mixFadeOut(_ fade: inout FadeOut, _ overlap: inout Overlap?, into destination: UnsafeMutablePointer<Float>,
                    frames: Int, over got: Int, _ out: inout [SequencerAction]) -> (Int, ended: Bool) {
        let length = Float(fade.length)
        var mixed = 0
        var dry = false
        while mixed < frames, fade.left > 0 {
            let n = readFeed(fade.feed, into: rampScratch, frames: min(frames - mixed, fade.left, rampFrames), &overlap, &out)
            if n == 0 { dry = true; break }   // the old one had nothing more: its sound ends here
            for i in 0..<n {
                let level = Float(fade.left - 1 - i) / length
                for c in 0..<channels {
                    let at = (mixed + i) * channels + c
                    destination[at] = (mixed + i < got ? destination[at] : 0) + rampScratch[i * channels + c] * level
                }
            }
            fade.left -= n
            mixed += n
        }
        return (max(got, mixed), dry || fade.left == 0)
    }

    /// Pulls the fade-out into `destination`; returns the frames it took, and whether the fade is
    /// over (it is, or its feed has nothing more to give).
    func pullFadeOut(_ fade: inout FadeOut, _ overlap: inout Overlap?, into destination: UnsafeMutablePointer<Float>,
                     frames: Int, _ out: inout [SequencerAction]) -> (Int, ended: Bool) {
        var got = 0
        while got < frames, fade.left > 0 {
            let n = readFeed(fade.feed, into: destination + got * channels, frames: min(frames - got, fade.left), &overlap, &out)
            if n == 0 { break }   // dry or drained: the sound already ends here
            let length = Float(fade.length)
            for i in 0..<n {
                let level = Float(fade.left - 1 - i) / length
                for c in 0..<channels { destination[(got + i) * channels + c] *= level }
            }
            fade.left -= n
            got += n
        }
        return (got, got < frames || fade.left == 0)
    }

    /// The fade-out over `a`'s feed is over: what was asked for follows.
    func endFadeOut(_ a: inout Active, _ out: inout [SequencerAction]) {
        guard let fade = a.fadeOut else { return }
        a.fadeOut = nil
        let own = fade.feed === a.current.feed
        switch fade.then {
        case .goOn:
            if own { a.current.fadeInAt = 0 }   // resumed during its fade-out: back in, from where it is
        case .pause:
            if own {
                _ = rewindFeed(fade.feed, fade.length - fade.left, &a.overlap)
                a.current.fadeInAt = 0   // a resume fades in from here
            }
            out.append(.setPaused(true))
        case .stop(let done):
            out.append(.setPaused(true))
            if let done { out.append(.whenHeard(done)) }
        }
        releaseOverlapIfUnread(&a, &out)
    }

    /// A stop's fade-out is over: nothing is left to play.
    mutating func endFadeOut(_ s: Stopping, _ out: inout [SequencerAction]) {
        switch s.fadeOut.then {
        case .goOn:
            break
        case .pause:
            out.append(.setPaused(true))
        case .stop(let done):
            out.append(.setPaused(true))
            if let done { out.append(.whenHeard(done)) }
        }
        var overlap = s.overlap
        finishOverlap(&overlap, &out)
        state = .idle(queued: s.queued)
    }

    /// Fades in the `frames` frames at `samples`, the first of the current feed's not yet faded in.
    func fadeIn(_ current: inout Current, _ samples: UnsafeMutablePointer<Float>, frames: Int) {
        guard current.fadeInAt < rampFrames else { return }
        let length = Float(rampFrames)
        var i = 0
        while i < frames, current.fadeInAt < rampFrames {
            current.fadeInAt += 1
            let level = Float(current.fadeInAt) / length
            for c in 0..<channels { samples[i * channels + c] *= level }
            i += 1
        }
    }
}
