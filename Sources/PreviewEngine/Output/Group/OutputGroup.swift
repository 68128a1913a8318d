import PreviewCore

/// Several outputs at once behind one `OutputSequencer` (issue 54): the sequencer makes the PCM once
/// (gain, ramps, crossfade, gapless joins) in the format of the output that kept the clock at start
/// (the first output that plays to a device, else the first), and this `AudioOutput` hands it to
/// every enabled output.
///
/// One member keeps the clock (`OutputClock.elect`): its device pulls from the sequencer exactly as
/// a lone output does, and the group's lock *is* that device's lock, so a skip (cancel, then a new
/// feed) stays atomic with respect to its pulls. Each of its pulls is copied into every enabled
/// follower's bounded queue (`OutputMember.receive`), converted where a follower takes another
/// format; the follower's device plays it at its own pace. The clock's delay is the one the
/// position is counted from. Locks are always taken clock first, then a follower; a follower's
/// thread never takes the clock's.
///
/// Two device clocks drift (say 50 ppm: 180 ms an hour): previewd never lets a follower pace the
/// sequencer (MPD lets its slowest output pace its pipe). A follower slower than the clock fills
/// its queue and drops what does not fit (a short skip once the slack is used); a faster one runs
/// dry and underruns briefly. Over a long gapless queue each keeps its own drift within its queue
/// (`queueMilliseconds`), and a skip, a pause or a stop realigns them.
public final class OutputGroup: AudioOutput, @unchecked Sendable {
    /// The outputs, by id (set once, in `init`).
    public private(set) var members: [OutputMember] = []
    /// The sequencer's format: the starting clock's.
    public let format: PCMFormat
    /// Guards `clockIndex` for readers; a writer also holds the old and the new clock's device locks.
    private let clockGuard = Lock()
    private var clockIndex = 0
    /// Serialises `setEnabled`.
    private let electing = Lock()
    /// The sequencer; set once, before anything else.
    weak var source: (any OutputSource)?
    // Guarded by the clock's lock (the sequencer's).
    private var paused = true
    private var inPull = false
    private var owedFollowerPause: Bool?
    // Guarded by `clockGuard`.
    private var volume = (percent: 100, muted: false)
    private var devicesSilenced = false

    /// A group over the devices `made` gives (each with its name, MPD plugin name and pacing), in
    /// the order given. Followers keep up to `queueMilliseconds` of frames each.
    init(_ made: [(device: any AudioOutput, name: String, plugin: String, playsToDevice: Bool)],
         queueMilliseconds: Int) throws(OutputValueError) {
        precondition(!made.isEmpty, "a group has at least one output")
        let start = OutputClock.elect(made.map { OutputClock.Candidate(enabled: true, playsToDevice: $0.playsToDevice) }, current: 0)
        format = made[start].device.format
        clockIndex = start
        var members: [OutputMember] = []
        members.reserveCapacity(made.count)
        for (id, output) in made.enumerated() {
            members.append(try OutputMember(id: id, name: output.name, plugin: output.plugin, playsToDevice: output.playsToDevice,
                                            device: output.device, group: self, sequencerFormat: format,
                                            queueMilliseconds: queueMilliseconds))
        }
        self.members = members
        for member in members { member.device.attach(member) }
    }

    /// The member keeping the clock now.
    public var clock: OutputMember { clockGuard.withLock { members[clockIndex] } }

    /// Lock of a member held: true when it keeps the clock (stable while its lock is held).
    func isClock(_ member: OutputMember) -> Bool { clockGuard.withLock { members[clockIndex] === member } }

    // MARK: Enabling and the clock

    /// Each output fed or not (`flags` by id; missing ones keep theirs). The clock moves to the
    /// first enabled output that plays to a device, else to the first enabled one; with none
    /// enabled, it stays where it is and plays on silently (the position runs).
    public func setEnabled(_ flags: [Bool]) {
        electing.withLock {
            withLock {
                let old = clockIndex
                let changed = members.filter { $0.id < flags.count && $0.enabled != flags[$0.id] }
                for member in changed {
                    if member.id == old { member.enabled = flags[member.id] } else { member.device.withLock { member.enabled = flags[member.id] } }
                }
                let winner = OutputClock.elect(candidates(), current: old)
                if winner != old { members[winner].device.withLock { moveClock(from: old, to: winner) } }
                // Only the outputs switched (and a clock given up) settle: the others play on undisturbed.
                for member in members where member.id != winner && (member.id == old || changed.contains { $0 === member }) {
                    if member.id == old { settleFollower(member) } else { member.device.withLock { settleFollower(member) } }
                }
            }
            // The new clock starts pulling only now, with the old one's lock let go: a device may pull
            // inside its kick (PulseAudio writes at once), and its pull copies to the old one.
            withLock { if !paused { clock.device.kick() } }
            applyVolume()
        }
    }

    /// Lock of the clock held: the clock lost its device. Another eligible output takes the clock
    /// over, so the sound goes on there; with none, the sequencer hears of the loss as from a lone
    /// output (the player starts again from where the sound stopped once it is back).
    func clockLost(_ member: OutputMember, _ why: String) {
        let winner = OutputClock.elect(candidates(), current: member.id)
        guard winner != member.id else { source?.outputLost(why); return }
        member.forget()
        members[winner].device.withLock {
            moveClock(from: member.id, to: winner)
            if !paused { members[winner].device.kick() }   // its pulls pass over the lost one, whose lock is held here
        }
    }

    /// The outputs as the election sees them. Reading another member's flags without its lock is a
    /// snapshot: they change only through `setEnabled` (serialised) and that member's own losses.
    private func candidates() -> [OutputClock.Candidate] {
        members.map { OutputClock.Candidate(enabled: $0.enabled, playsToDevice: $0.playsToDevice, reachable: $0.reachable,
                                            takesSequencerFormat: $0.takesSequencerFormat) }
    }

    /// Both devices' locks held: `new` keeps the clock from now on, at the sequencer's pause state:
    /// it plays what it had queued, then pulls on from the sequencer, so its listener hears no skip.
    /// `old` becomes a follower (`settleFollower` cuts it off when it was switched off). The caller
    /// kicks the new clock once it may pull.
    private func moveClock(from old: Int, to new: Int) {
        let next = members[new]
        clockGuard.withLock { clockIndex = new }
        next.pausing = false
        next.device.setPaused(paused)
    }

    /// A follower's device lock (and the clock's) held: fed and at the group's pause state, or cut off.
    private func settleFollower(_ member: OutputMember) {
        if member.enabled {
            member.device.setPaused(paused)
        } else {
            member.forget()
            member.device.cancel()
            member.device.setPaused(true)
        }
    }

    // MARK: The clock's pull

    /// Clock's lock held: pulls from the sequencer into the clock's device and copies what came to
    /// every enabled follower. A pause the sequencer asks for during the pull reaches the followers
    /// after this pull's frames (its fade-out), so they play them before pausing.
    func pullAsClock(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        guard let source else { return 0 }
        inPull = true
        let got = source.pull(into: destination, frames: frames)
        inPull = false
        if got > 0 {
            // A lost one gets nothing (its queue would only fill; and a lost clock's lock is held while
            // the clock moves, so it is never taken here).
            for member in members where member !== clock && member.reachable {
                member.device.withLock { member.receive(destination, frames: got) }
            }
        }
        if let owed = owedFollowerPause {
            owedFollowerPause = nil
            pauseFollowers(owed)
        }
        return got
    }

    /// Clock's lock held: followers pause once they have played what they hold, or go on.
    private func pauseFollowers(_ pause: Bool) {
        for member in members where member !== clock {
            member.device.withLock {
                guard member.enabled else { return }
                if !pause {
                    member.pausing = false
                    member.device.setPaused(false)
                    if member.queued > 0 { member.device.kick() }
                } else if member.queued > 0 {
                    member.pausing = true
                } else {
                    member.device.setPaused(true)
                }
            }
        }
    }

    // MARK: AudioOutput (the sequencer's side)

    public func withLock<T>(_ body: () -> T) -> T {
        var result: T?
        var held = false
        repeat {
            let member = clock
            member.device.withLock {
                guard isClock(member) else { return }   // moved meanwhile: take the new clock's
                held = true
                result = body()
            }
        } while !held
        return result!
    }

    public func attach(_ source: any OutputSource) { self.source = source }

    public func kick() { clock.device.kick() }

    public func setPaused(_ paused: Bool) {
        self.paused = paused
        clock.device.setPaused(paused)
        if inPull { owedFollowerPause = paused } else { pauseFollowers(paused) }
    }

    public func cancel() {
        clock.device.cancel()
        for member in members where member !== clock {
            member.device.withLock {
                member.forget()
                member.device.cancel()
            }
        }
    }

    public var delayFrames: Int { clock.device.delayFrames }

    public var cancellableFrames: Int { clock.device.cancellableFrames }

    public func whenHeard(_ done: @escaping @Sendable () -> Void) { clock.device.whenHeard(done) }

    public func setVolume(_ percent: Int, muted: Bool) {
        clockGuard.withLock { volume = (percent, muted) }
        applyVolume()
    }

    public func setMetadata(title: String?, artist: String?) {
        for member in members { member.device.setMetadata(title: title, artist: artist) }
    }

    public func close() {
        for member in members { member.device.close() }
    }

    /// "Here only" (a page plays the queue itself): the outputs that sound in the room (a sound card,
    /// Snapcast, a pipe) go silent, their clocks running; a stream listeners open keeps streaming.
    public func silenceDevices(_ silent: Bool) {
        clockGuard.withLock { devicesSilenced = silent }
        applyVolume()
    }

    /// One volume for all (an output with its own mixer sets it there); the clock, when no output
    /// is enabled, plays silently so the position runs; the room's outputs while a page plays here only.
    private func applyVolume() {
        let (level, clockIndex, devicesSilenced) = clockGuard.withLock { (volume, self.clockIndex, self.devicesSilenced) }
        for member in members {
            let silent = (member.id == clockIndex && !member.enabled) || (devicesSilenced && !member.servesListeners)
            member.device.setVolume(level.percent, muted: level.muted || silent)
        }
    }
}
