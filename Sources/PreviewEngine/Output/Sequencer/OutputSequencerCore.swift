import PreviewCore

/// The output sequencer's decisions, in swift-nio's shape (`NIOTypedHTTPServerUpgraderStateMachine`,
/// and `Transport` here): one `State` whose cases carry exactly their data, one `mutating func` per
/// input returning what the sequencer must do (`SequencerAction`), in order. It holds no lock and
/// touches no device: `OutputSequencer` holds the lock, the device and the scratch buffers, and
/// carries the actions out. It reads and rewinds the feeds (`PCMRing`s, memory only), so a test
/// drives it alone, frame by frame, with no device thread and no clock.
///
/// Every input is legal in every state (a device, the sound server and the player call in any
/// order); one that means nothing in a state does nothing there. Only the machine's own invariants
/// trap.
struct OutputSequencerCore {
    /// Where the sequencing is.
    enum State {
        /// Nothing to play: at start, after a stop, after a loss. A follower enqueued now waits
        /// for a `play` (it follows whatever plays then).
        case idle(queued: PCMRing?)
        /// A feed is current, playing or paused (`Active`), perhaps under a fade-out or over an overlap.
        case active(Active)
        /// A stop's fade-out is pulled; then the device pauses with nothing left to play.
        case stopping(Stopping)
    }

    /// The device's side, apart from the feeds: a feed may be played while the output is away (it
    /// waits), and the restoration drops it, as the player starts again from where the sound stopped.
    enum Link: Equatable {
        /// Connected, or never lost.
        case up
        /// `.lost` was sent (with this reason, the latest attempt's) and `.restored` is owed.
        case lost(String)
    }

    /// A current feed and what surrounds it.
    struct Active {
        var current: Current
        /// Plays right after `current` drains, in the same pull (gapless).
        var queued: PCMRing?
        var paused: Bool
        /// A fade-out pulled ahead of anything else: a skip's old feed, or `current` at a pause.
        var fadeOut: FadeOut?
        /// The old feed under `current`'s first frames (a crossfade), or under the fading-out one.
        var overlap: Overlap?

        /// The feed ran out by itself with nothing after it or mixed with it: the queue's end, whose
        /// last frames the device still holds.
        var endedByItself: Bool { current.feed.isDrained && queued == nil && fadeOut == nil && overlap == nil }
    }

    /// A stop's fade: the feeds are forgotten, the fade's own feed is read to its end.
    struct Stopping {
        var fadeOut: FadeOut
        /// Enqueued since the stop began.
        var queued: PCMRing?
        var overlap: Overlap?
        /// A resume during the fade makes it end with the sound going on (to nothing).
        var paused: Bool
    }

    /// The current feed's own bookkeeping, made anew for each feed.
    struct Current {
        let feed: PCMRing
        /// Frames pulled from it, and when its first one was (CLOCK_MONOTONIC, ns).
        var taken = 0
        var startedAt: UInt64?
        /// Frames of its fade-in done; `rampFrames` when none is due.
        var fadeInAt: Int
        var supply = Supply.flowing
        /// An underrun was reported; `refilled` is owed.
        var starving = false
        /// The most frames of it reported heard: a cancel takes frames back from `taken` before
        /// the device's delay has caught up, and what was heard cannot become unheard.
        var heard = 0
    }

    /// Whether the current feed gives frames.
    enum Supply: Equatable {
        /// It gives frames, or may: pull it.
        case flowing
        /// It was found dry and its producer will call back (`whenReadable`): no pull until then.
        case dry
        /// It ended and that was reported: only a follower makes a pull worth it.
        case drained
    }

    /// A fade-out in progress: its feed, its length, the frames left, and what follows.
    struct FadeOut {
        let feed: PCMRing
        let length: Int
        var left: Int
        var then: FadeEnd
    }

    /// What follows a fade-out.
    enum FadeEnd {
        /// The current feed goes on (a skip: the new feed fades in right after).
        case goOn
        /// The device pauses; the feed is kept, stepped back to where the fade began.
        case pause
        /// The device pauses with nothing kept; `done` once what it holds has been heard.
        case stop((@Sendable () -> Void)?)
    }

    /// The old feed under the first `length` frames of `incoming` (from its frame `base`), and how
    /// many of its frames have been mixed in (`OutputSequencerCore+Crossfade.swift`).
    struct Overlap {
        let outgoing: PCMRing
        let incoming: PCMRing
        let base: Int
        let length: Int
        var outgoingRead = 0
    }

    /// Where the sequencing is, and the device's side; changed only by the inputs (the extensions).
    var state = State.idle(queued: nil)
    var link = Link.up
    /// Frames of the short ramp every onset and stop takes (`+Ramp`); 0: none.
    let rampFrames: Int
    let channels: Int
    /// Frames consecutive tracks overlap by at the end of the first (0: the gapless join).
    var crossfadeFrames = 0
    /// A skip's old feed is read here before it is mixed over the new one (a ramp's worth).
    let rampScratch: UnsafeMutablePointer<Float>
    /// An overlap's old feed is read here, `overlapChunkFrames` at a time.
    let overlapScratch: UnsafeMutablePointer<Float>

    /// Frames an overlap's old feed is read in at a time.
    static let overlapChunkFrames = 1_024

    /// A machine for `channels`-channel frames with a ramp of `rampFrames`, reading through the
    /// scratch buffers its owner allocated (`rampFrames` and `overlapChunkFrames` frames).
    init(rampFrames: Int, channels: Int, rampScratch: UnsafeMutablePointer<Float>, overlapScratch: UnsafeMutablePointer<Float>) {
        self.rampFrames = rampFrames
        self.channels = channels
        self.rampScratch = rampScratch
        self.overlapScratch = overlapScratch
    }
}

/// What an input asks of the device and the player, carried out in order with the lock held.
enum SequencerAction {
    /// The device drops what it holds unplayed.
    case cancel
    /// There is something to play: the device pulls (now or soon).
    case kick
    case setPaused(Bool)
    /// `done` once what the device holds has been heard.
    case whenHeard(@Sendable () -> Void)
    /// Once what the device holds has been heard, it drops whatever is left, unless a feed came meanwhile.
    case dropWhenHeard
    /// Whoever waited for a fade that was abandoned goes on.
    case call(@Sendable () -> Void)
    /// The player is told.
    case report(OutputEvent)
}
