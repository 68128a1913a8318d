import PreviewCore

/// Everything between the player and a device that is not the device (MPD's `AudioOutputControl`):
/// the current feed and the enqueued one, the gapless hand-over, drain/started/underrun/refilled
/// events, the position heard, skip, stop, pause, the ramp and the crossfade, and loss and
/// restoration of the output. The decisions are `OutputSequencerCore`'s; this class holds the
/// lock, the scratch buffers and the device, and carries the machine's actions out. The device
/// (`AudioOutput`) pulls frames from it on its own thread (`OutputSequencer+Device.swift`).
///
/// The machine is guarded by the output's lock (`output.withLock`), which the device thread holds
/// whenever it pulls; events are sent with it held, on whichever thread caused them. Nothing here
/// blocks the caller long; feeds are told apart by their load's id (`PCMRing.id`).
public final class OutputSequencer {
    /// The device.
    public let output: any AudioOutput
    var machine: OutputSequencerCore
    var eventHandler: (@Sendable (OutputEvent) -> Void)?
    /// The pull's actions are gathered here: kept, so a pull allocates nothing.
    var pullActions: [SequencerAction] = []
    private let rampScratch: UnsafeMutablePointer<Float>
    private let overlapScratch: UnsafeMutablePointer<Float>

    /// A sequencer feeding `output`, every onset and stop ramped over `rampMilliseconds` (0: none,
    /// for tests of the sequencing alone).
    public init(output: any AudioOutput, rampMilliseconds: Int = OutputSequencer.rampMilliseconds) {
        self.output = output
        let rampFrames = output.format.frames(milliseconds: rampMilliseconds)
        let channels = output.format.channels
        rampScratch = .allocate(capacity: max(1, rampFrames * channels))
        overlapScratch = .allocate(capacity: OutputSequencerCore.overlapChunkFrames * channels)
        machine = OutputSequencerCore(rampFrames: rampFrames, channels: channels,
                                        rampScratch: rampScratch, overlapScratch: overlapScratch)
        pullActions.reserveCapacity(16)
        output.attach(self)
    }

    deinit {
        rampScratch.deallocate()
        overlapScratch.deallocate()
    }

    /// The ramp every onset and stop takes (`OutputSequencerCore+Ramp.swift`).
    public static let rampMilliseconds = 3

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
        output.withLock { perform(machine.play(next, paused: paused, cancellable: { output.cancellableFrames })) }
    }

    /// Plays `next` right after the current feed drains, in the same stream (gapless); nil cancels.
    public func enqueue(_ next: PCMRing?) {
        if let next { checkFormat(of: next) }
        output.withLock { perform(machine.enqueue(next)) }
    }

    /// Sound stops at once, nothing is lost.
    public func pause() {
        output.withLock { perform(machine.pause(cancellable: { output.cancellableFrames })) }
    }

    /// Sound goes on from where it stopped.
    public func resume() {
        output.withLock { perform(machine.resume()) }
    }

    /// Drops what the device holds, pauses and forgets the feeds. A feed that ended by itself (the
    /// queue's end) is not cut: its last frames, which the device holds, are heard to the end first.
    public func stop() {
        output.withLock { perform(machine.stop(cancellable: { output.cancellableFrames })) }
    }

    /// Brings the sound down to silence over about `milliseconds`, then stops (at exit: no click).
    /// Never waits: `done` is called (on any thread) once the sound is down and the feeds stopped.
    public func fadeOutAndStop(milliseconds: Int, then done: @escaping @Sendable () -> Void) {
        output.withLock {
            perform(machine.fadeOutAndStop(frames: output.format.frames(milliseconds: milliseconds), then: done,
                                           cancellable: { output.cancellableFrames }))
        }
    }

    /// Consecutive tracks overlap by `milliseconds` at the end of the first (0: the gapless join).
    /// Takes effect at the next track's end.
    public func setCrossfade(milliseconds: Int) {
        output.withLock { machine.crossfadeFrames = output.format.frames(milliseconds: max(0, milliseconds)) }
    }

    /// Frames of the current feed that have been heard (taken minus what is still in the device).
    public var playedFrames: Int {
        output.withLock { machine.heardFrames(delay: { output.delayFrames }) }
    }

    /// The id of the feed being played, if any.
    public var currentFeed: UInt64? {
        output.withLock { machine.current?.feed.id }
    }

    /// When the current feed's first frame was handed to the device (CLOCK_MONOTONIC, ns).
    public var currentFeedStartedAt: UInt64? {
        output.withLock { machine.current.flatMap { $0.taken > 0 ? $0.startedAt : nil } }
    }

    /// "ok", or why there is no output.
    public var statusText: String {
        output.withLock { machine.statusText }
    }

    /// Volume, 0–100 % of the normal level, and mute. Kept across reconnections.
    public func setVolume(_ percent: Int, muted: Bool) {
        output.setVolume(min(100, max(0, percent)), muted: muted)
    }

    /// "Here only" (a page plays the queue itself): the outputs that sound in the room go silent,
    /// their clocks running; a stream listeners open keeps streaming. A lone device (no group) has no such part:
    /// the caller mutes it (`silencesDevices` is false).
    public func silenceDevices(_ silent: Bool) {
        (output as? OutputGroup)?.silenceDevices(silent)
    }

    /// True when `silenceDevices` acts (the outputs are a group, as previewd makes them).
    public var silencesDevices: Bool { output is OutputGroup }

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

    /// Lock held: carries out the machine's actions, in order.
    func perform(_ actions: [SequencerAction]) {
        for action in actions { perform(action) }
    }

    /// Lock held: carries out one action.
    func perform(_ action: SequencerAction) {
        switch action {
        case .cancel: output.cancel()
        case .kick: output.kick()
        case .setPaused(let paused): output.setPaused(paused)
        case .whenHeard(let done): output.whenHeard(done)
        case .dropWhenHeard:
            output.whenHeard { [weak self] in if let self, machine.current == nil { output.cancel() } }
        case .call(let done): done()
        case .report(let event): eventHandler?(event)
        }
    }
}

// The machine and the handler are guarded by the output's lock (see the type's comment).
extension OutputSequencer: @unchecked Sendable {}
