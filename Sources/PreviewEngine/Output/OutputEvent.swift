/// What the `OutputSequencer` reports to the player; a feed is named by its `PCMRing.id`.
public enum OutputEvent: Equatable, Sendable {
    /// Every frame of the feed has been written and its producer had finished.
    case drained(UInt64)
    /// The feed's last frames begin to fade out under the enqueued one (a crossfade); `.drained`
    /// and `.started` follow at once, `.faded` once the feed is no longer read.
    case fading(UInt64)
    /// The feed that faded out under its follower will not be read again.
    case faded(UInt64)
    /// An enqueued feed took over from a drained one, in the same stream.
    case started(UInt64)
    /// The feed ran dry before its producer finished (the network is slow).
    case underrun(UInt64)
    /// The feed flows again after an underrun.
    case refilled(UInt64)
    /// The output went away; `heardFrames` of the current feed had been heard.
    case lost(String, heardFrames: Int)
    /// The output is back (reconnected); nothing is playing on it yet.
    case restored
}
