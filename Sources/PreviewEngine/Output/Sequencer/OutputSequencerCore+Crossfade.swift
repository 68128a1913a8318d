import Glibc
import PreviewCore

/// The crossfade between consecutive tracks (MPD's `crossfade`), on every output: when the feed is
/// `crossfadeFrames` from its end and a follower is enqueued with audio ready, the follower becomes
/// the feed and the old one goes on under it, both over the same frames: the new one rises as
/// sin(πt/2), the old one falls as cos(πt/2), so their powers add to a constant (an equal-power
/// fade: two unrelated sounds at the same level stay at that level throughout). Each ring applies
/// its own track's gain as it is read, so each track keeps its loudness through the fade.
///
/// MPD mixes with sin² and cos² (src/pcm/Mix.cxx), an equal-amplitude fade: right for one sound
/// fading into itself, 3 dB down in the middle for two different tracks. Previews are always two
/// different tracks. As in MPD (src/player/CrossFade.cxx) the overlap is never longer than half of
/// either track, and a track with nothing after it ends plainly.
///
/// The old feed is mixed in wherever the new one is read (`readFeed`), so everything that reads the
/// feed (a skip's ramp, a pause's fade-out and its resume, a stop) hears both, and steps back over
/// both when the device drops what it holds (`rewindFeed`). At the fade's start the player is told
/// `.fading(old)`, `.drained(old)` and `.started(new)`: the new track is current from then on, as
/// MPD reports the next song once its crossfade begins; `.faded(old)` once nothing can read the old
/// one again (its slot can go).
extension OutputSequencerCore {
    /// Before reading the current feed: nil, read on; 0, the overlap has begun (read the new feed);
    /// else, read at most that many frames first (the overlap begins right after).
    func prepareOverlap(_ a: inout Active, _ out: inout [SequencerAction]) -> Int? {
        let current = a.current.feed
        guard crossfadeFrames > 0, a.overlap == nil, let next = a.queued, let remaining = current.remainingFrames, remaining > 0 else {
            return nil
        }
        var length = crossfadeFrames
        if let total = current.totalFrames { length = min(length, total / 2) }
        if let total = next.totalFrames { length = min(length, total / 2) }
        guard length > 0 else { return nil }
        if remaining > length { return remaining - length }
        // A follower with nothing decoded yet joins later, over a shorter overlap.
        guard next.availableFrames > 0 else { return nil }
        out.append(.report(.fading(current.id)))
        out.append(.report(.drained(current.id)))
        a.queued = nil
        begin(&a, next, &out)
        a.overlap = Overlap(outgoing: current, incoming: next, base: next.consumedFrames, length: remaining)
        out.append(.report(.started(next.id)))
        return 0
    }

    /// Reads up to `frames` frames of `ring` into `destination`, with the old feed mixed under them
    /// when `ring` is the new feed of `overlap`.
    func readFeed(_ ring: PCMRing, into destination: UnsafeMutablePointer<Float>, frames: Int,
                  _ overlap: inout Overlap?, _ out: inout [SequencerAction]) -> Int {
        let n = ring.read(into: destination, frames: frames)
        guard let o = overlap, o.incoming === ring, n > 0 else { return n }
        let at = ring.consumedFrames - n - o.base
        mixOutgoing(&overlap, into: destination, at: at, frames: n)
        // Kept a little past its end, so a rewind over the end finds the old feed where it was.
        if at + n >= o.length + ring.historyFrames { finishOverlap(&overlap, &out) }
        return n
    }

    /// The curves over the `frames` frames at `destination`, the new feed's from its frame `at` of
    /// the overlap; the old feed read in step and added.
    private func mixOutgoing(_ overlap: inout Overlap?, into destination: UnsafeMutablePointer<Float>, at: Int, frames: Int) {
        guard let o = overlap else { return }
        let start = max(0, at)
        let inside = max(0, min(frames - (start - at), o.length - start))
        guard inside > 0 else { return }
        let quarter = Float.pi / 2 / Float(o.length)
        var done = 0
        while done < inside {
            let chunk = min(inside - done, Self.overlapChunkFrames)
            let got = o.outgoing.read(into: overlapScratch, frames: chunk)   // fewer if it ran dry or ended
            for i in 0..<chunk {
                let angle = Float(start + done + i) * quarter
                let rising = sinf(angle)
                let falling = cosf(angle)
                let row = (start - at + done + i) * channels
                for c in 0..<channels {
                    let old = i < got ? overlapScratch[i * channels + c] * falling : 0
                    destination[row + c] = destination[row + c] * rising + old
                }
            }
            overlap?.outgoingRead += got
            done += chunk
        }
    }

    /// Steps `ring` back over up to `frames` frames (the device dropped them unheard); the old feed
    /// under it steps back with it. Returns how many.
    func rewindFeed(_ ring: PCMRing, _ frames: Int, _ overlap: inout Overlap?) -> Int {
        let back = ring.rewind(frames)
        guard back > 0, let o = overlap, o.incoming === ring else { return back }
        let inStep = min(max(0, ring.consumedFrames - o.base), o.length)
        let excess = o.outgoingRead - inStep
        if excess > 0 { overlap?.outgoingRead -= o.outgoing.rewind(excess) }
        return back
    }

    /// The overlap is over, or nothing reads its new feed any more: the old feed goes.
    func finishOverlap(_ overlap: inout Overlap?, _ out: inout [SequencerAction]) {
        guard let o = overlap else { return }
        overlap = nil
        out.append(.report(.faded(o.outgoing.id)))
    }

    /// Ends an overlap whose new feed is neither playing nor fading out.
    func releaseOverlapIfUnread(_ a: inout Active, _ out: inout [SequencerAction]) {
        guard let o = a.overlap, o.incoming !== a.current.feed, o.incoming !== a.fadeOut?.feed else { return }
        finishOverlap(&a.overlap, &out)
    }

    /// Ends an overlap whose new feed is not the one fading out.
    func releaseOverlapIfUnread(_ s: inout Stopping, _ out: inout [SequencerAction]) {
        guard let o = s.overlap, o.incoming !== s.fadeOut.feed else { return }
        finishOverlap(&s.overlap, &out)
    }
}
