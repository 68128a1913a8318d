import PreviewCore

/// The device seam, after MPD's `AudioOutput` (src/output/Interface.hxx): an output is told the
/// format, writes frames, pauses, cancels what the device holds, reports its delay and its loss and
/// restoration. Feeds, gapless hand-over, events and position are the `OutputSequencer`'s, shared by
/// every output.
///
/// Pull, not push: the output's own thread pulls frames (`OutputSequencer.pull`) when the device has
/// room, holding the output's lock. The sequencer's state is guarded by that same lock, so a skip
/// (cancel, then a new feed) is atomic with respect to a pull, and a device with nothing to do sleeps
/// until `kick`.
///
/// Members marked "lock held" are called inside `withLock`; the output calls the sequencer's `pull`,
/// `outputLost` and `outputRestored` with the lock held too.
public protocol AudioOutput: AnyObject, Sendable {
    /// The PCM format the output takes.
    var format: PCMFormat { get }
    /// Runs `body` holding the lock the device thread holds whenever it pulls. Not reentrant.
    func withLock<T>(_ body: () -> T) -> T
    /// Whom to pull from and report to; called once, before anything else. Kept weakly.
    func attach(_ source: any OutputSource)
    /// Lock held: there is something to play: connect if needed and pull now (or on the device thread, soon).
    func kick()
    /// Lock held, possibly from inside a pull: paused, the device plays what it holds (the sequencer
    /// ends a pause with its short fade-out, so that is all it holds) and takes no more; unpaused,
    /// the sound goes on at once.
    func setPaused(_ paused: Bool)
    /// Lock held: drops what the device holds and has not played yet.
    func cancel()
    /// Lock held: frames pulled but not yet heard.
    var delayFrames: Int { get }
    /// Lock held: the frames `cancel` would drop now (the sequencer pulls them again, faded out, so a
    /// stop continues from what was heard). Default: `delayFrames`, for a device that drops all it holds.
    var cancellableFrames: Int { get }
    /// Lock held: calls `done` (lock held, at once or later on the device thread) once what the
    /// device holds has been heard. Default: at once.
    func whenHeard(_ done: @escaping @Sendable () -> Void)
    /// Level, 0–100 % of the normal one, and mute; kept across reconnections.
    func setVolume(_ percent: Int, muted: Bool)
    /// What desktop mixers show for the stream; outputs without metadata ignore it.
    func setMetadata(title: String?, artist: String?)
    /// Releases the device and its thread; the output is unusable afterwards.
    func close()
}

extension AudioOutput {
    /// All the device holds.
    public var cancellableFrames: Int { delayFrames }

    /// At once: what the device holds is beyond waiting for.
    public func whenHeard(_ done: @escaping @Sendable () -> Void) { done() }

    /// No stream metadata.
    public func setMetadata(title: String?, artist: String?) {}
}
