import PreviewCore

/// What the player needs of an audio output (after MPD's AudioOutput: play, pause, cancel, delay).
/// Implementations pull PCM from a `PCMBuffer` on their own thread; they never block the caller long.
public protocol AudioSink: AnyObject, Sendable {
    /// The PCM format the sink plays; decoders produce exactly this.
    var format: PCMFormat { get }
    /// Called (from the sink's thread) when something happens the player must know.
    func setEventHandler(_ handler: @escaping @Sendable (OutputEvent) -> Void)
    /// Plays `feed` next; corked when `paused`. If the previous feed still had audio to play (a skip),
    /// that audio is flushed, not heard; if it had ended by itself, `feed` follows it with no gap.
    func play(_ feed: PCMBuffer, tag: RequestID, paused: Bool) throws(OutputError)
    /// Corks: sound stops at once, nothing is lost.
    func pause()
    /// Uncorks.
    func resume()
    /// Flushes, corks and forgets the feed.
    func stop()
    /// Frames of the current feed that have been heard (written minus what is still in the device).
    var playedFrames: Int { get }
    /// "ok", or why there is no output.
    var statusText: String { get }
    /// Releases the device; the sink is unusable afterwards.
    func close()
}

/// What an audio sink reports.
public enum OutputEvent: Equatable, Sendable {
    /// Every frame of the feed `tag` has been written and its producer had finished.
    case drained(RequestID)
    /// The output went away (server killed, sink removed); the message says why.
    case lost(String)
}

/// Why the output could not play.
public struct OutputError: Error, Equatable, Sendable {
    /// One line for the user.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
}
