import PreviewCore

/// What the player needs of the sound: feeds played, paused, followed gaplessly, and what happened to
/// them. `OutputSequencer` implements it over any `AudioOutput` (the device); tests may fake it.
/// Nothing here blocks the caller long. Feeds are told apart by their load's id (`PCMRing.id`).
public protocol AudioSink: AnyObject, Sendable {
    /// The PCM format the sink plays; decoders produce exactly this.
    var format: PCMFormat { get }
    /// Called (from the sink's thread) when something happens the player must know.
    func setEventHandler(_ handler: @escaping @Sendable (OutputEvent) -> Void)
    /// Plays `feed` now; corked when `paused`. If the previous feed still had audio to play (a skip),
    /// that audio is flushed, not heard; if it had ended by itself, `feed` follows it with no gap.
    /// Playing the feed that is already current only sets the cork. Never waits for the device:
    /// when there is none (yet), the sink reports `.lost` and later `.restored`.
    func play(_ feed: PCMRing, paused: Bool)
    /// Plays `feed` right after the current one drains, in the same stream (gapless); nil cancels.
    func enqueue(_ feed: PCMRing?)
    /// Corks: sound stops at once, nothing is lost.
    func pause()
    /// Uncorks.
    func resume()
    /// Flushes, corks and forgets the feeds.
    func stop()
    /// Brings the sound down to silence over about `milliseconds`, then stops (at exit: no click).
    /// Never waits: `done` is called (on any thread) once the sound is down and the feeds stopped.
    func fadeOutAndStop(milliseconds: Int, then done: @escaping @Sendable () -> Void)
    /// Frames of the current feed that have been heard (written minus what is still in the device).
    var playedFrames: Int { get }
    /// The id of the feed being played, if any.
    var currentFeed: UInt64? { get }
    /// When the current feed's first frame was handed to the audio stream (CLOCK_MONOTONIC, ns).
    var currentFeedStartedAt: UInt64? { get }
    /// "ok", or why there is no output.
    var statusText: String { get }
    /// Stream volume, 0–100 % of the normal level, and mute. Kept across reconnections.
    func setVolume(_ percent: Int, muted: Bool)
    /// What desktop mixers show for the stream.
    func setMetadata(title: String?, artist: String?)
    /// Releases the device; the sink is unusable afterwards.
    func close()
}

/// What an audio sink reports; a feed is named by its `PCMRing.id`.
public enum OutputEvent: Equatable, Sendable {
    /// Every frame of the feed has been written and its producer had finished.
    case drained(UInt64)
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
