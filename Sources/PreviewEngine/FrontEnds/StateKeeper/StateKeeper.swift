import Glibc
import PreviewCore

/// Keeps the listening session across restarts and crashes, through the engine's verbs like any
/// front-end: at start it reads `state.jsonl` and gives it back paused (the queue with `add` of its
/// tracks, no catalog call; the modes, the shuffled order, the volume; the current track loaded
/// paused at its position); while previewd runs it writes the state again after each change (never
/// for position ticks alone), at most about once a second, whole or not at all, on the state
/// thread; at exit once more. It also journals the history: each preview heard (playing) for five
/// seconds or more.
///
/// Faults lose nothing and stop nothing: a file that cannot be read is moved aside and previewd
/// starts with what could be read; a write that fails (a full disk, a read-only folder) is told
/// once, leaves the old file whole, and is tried again at the next change.
public final class StateKeeper: FrontEnd, @unchecked Sendable {   // after `start`, confined to the engine loop
    /// Writes start at least this far apart.
    static let interval = 1.0

    private let engine: EngineHandle
    private let path: String
    private let restoreQueue: Bool
    private let crossfadeGiven: Bool
    private let history: HistoryJournal?
    private let files: TrackFileStore<SavedState>
    private var saved: TrackFile<SavedState>?
    private var observer: EventHub.Observer?
    private var restoring = true
    private var stopped = false
    private var pending: EngineLoop.TimerID?
    private var writing = false
    private var dirty = false
    private var lastWrite: UInt64 = 0
    private let failing = Locked(false)   // the state thread's: a failure is told once until a write succeeds
    private var listening: Listening?
    /// The current track, for a listening that starts again after a stop.
    private var currentTrack: Track?

    /// What is being heard now: its track and how long it has played.
    private struct Listening {
        var track: Track
        var seconds = 0.0
        var since: UInt64?
    }

    /// Keeps the state in `folder` (`state.jsonl`); `restoreQueue` false: the queue is not given
    /// back (a start-up `--search` replaces it). `history`: where heard previews are journaled.
    /// `crossfadeGiven`: the command line set the crossfade, the saved one is not restored.
    public init(folder: String, restoreQueue: Bool, crossfadeGiven: Bool = false, history: HistoryJournal?, engine: EngineHandle) {
        self.engine = engine
        path = folder + "/state.jsonl"
        self.restoreQueue = restoreQueue
        self.crossfadeGiven = crossfadeGiven
        self.history = history
        files = TrackFileStore(count: { $0.count }, format: { $0.format }, currentFormat: SavedState.currentFormat, log: engine.log)
    }

    /// Reads the saved state (before the loop serves anyone) and restores it on the loop. A folder
    /// that cannot be used is told and previewd runs without keeping its state: it never refuses to start.
    public func start() throws(FrontEndError) {
        if let problem = StateFolders.prepare(String(path.dropLast("/state.jsonl".count))) {
            engine.log(.warning, "state not kept: \(problem)")
            stopped = true
            return
        }
        saved = files.load(path, what: "state")
        engine.loop.execute { [self] in
            observer = engine.events.addObserver { [unowned self] in heard($0) }
            Task(executorPreference: engine.loop) { await self.restore() }
        }
    }

    /// Hears no more events; the last state goes to the disk (`finish` waits for it).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if let observer { engine.events.removeObserver(observer) }
        if let pending { engine.loop.cancel(pending) }
        pending = nil
        endListening()
        if !restoring { write() }
    }

    /// The last write is on the disk.
    public func finish() async {
        await StateDisk.run {}
    }

    // MARK: Restoring

    private func restore() async {
        defer {
            restoring = false
            saved = nil
            changed()
        }
        guard let saved else { return engine.log(.info, "state restored: nothing saved in \(path)") }
        let state = saved.header
        var ids: [Int?] = []
        var refused = 0
        if restoreQueue, !saved.tracks.isEmpty,
           case .added(let added)? = await perform(.add(.tracks(saved.tracks), Enqueue(play: false, at: .end))) {
            // Saved index → new id (a track the filter refused has none: it is skipped, never misplaced).
            var fresh = added.ids.makeIterator()
            let left = Set(added.notQueued.map(\.result))
            ids = saved.tracks.indices.map { left.contains($0) ? nil : fresh.next() }
            refused = left.count
        }
        defer {
            let paused = ids.isEmpty ? "" : state.current.map { " with item \($0) paused at \(state.positionMs) ms" } ?? ""
            engine.log(.info, "state restored: \(ids.compactMap { $0 }.count) tracks\(refused > 0 ? " (\(refused) refused)" : "")\(paused)")
        }
        await perform(.setRepeat(state.repeat))
        await perform(.setSingle(state.single))
        await perform(.setConsume(state.consume))
        if let seconds = state.crossfade, !crossfadeGiven { await perform(.crossfade(seconds)) }
        await restoreOutputs(state)
        if let order = state.order {
            let shuffled = order.compactMap { ids.indices.contains($0) ? ids[$0] : nil }
            await perform(shuffled.count == ids.compactMap({ $0 }).count && !shuffled.isEmpty ? .shuffleOrder(shuffled) : .setShuffle(true))
        }
        if state.radio == true || !(state.radioSkips ?? [:]).isEmpty { await perform(.setRadio(state.radio ?? false, skips: state.radioSkips)) }
        await perform(.volume(.set(state.volume)))
        await perform(.mute(state.muted))
        if let current = state.current, ids.indices.contains(current), let id = ids[current] {
            // Paused where it was, as MPD's restore_paused: loaded, corked, nothing heard.
            await perform(.play(.id(id), startMs: state.positionMs, paused: true))
        }
    }

    /// Each output's switch by its name, as MPD's state file keeps them: an output no longer
    /// configured is forgotten, a new one starts on. A file from before there were several keeps
    /// one switch for all.
    private func restoreOutputs(_ state: SavedState) async {
        guard let saved = state.outputs else {
            if state.outputEnabled == false { await perform(.setOutput(enabled: false)) }
            return
        }
        for output in engine.status().outputs where saved[output.name] == false {
            await perform(.switchOutput(id: output.id, enabled: false))
        }
    }

    @discardableResult
    private func perform(_ command: ControlCommand) async -> ControlResult? {
        do throws(ControlError) { return try await engine.perform(command) } catch {
            engine.log(.warning, "state: restoring \(command.request(id: nil).cmd): \(error.message)")
            return nil
        }
    }

    // MARK: Saving

    private func heard(_ event: ControlEvent) {
        switch event {
        case .queue, .modes, .crossfade, .outputEnabled, .volume, .seeked: changed()
        case .track(_, _, let track, _):
            endListening()
            currentTrack = track
            listening = Listening(track: track)
            changed()
        case .state(let state, _, _):
            switch state {
            case .playing:
                if listening == nil, let currentTrack { listening = Listening(track: currentTrack) }
                if listening?.since == nil { listening?.since = MonotonicClock.nanoseconds() }
            case .paused, .loading: pauseListening()
            case .stopped, .idle: endListening()   // a stop ends a listening; play starts another
            }
            changed()
        case .position, .loudness, .artwork, .error, .outputLost, .outputBack, .buffering, .lists, .library, .normalization, .waiting, .playHere: break
        }
    }

    /// Something worth keeping changed: written now, or once the interval since the last write is over.
    private func changed() {
        guard !restoring, !stopped else { return }
        guard !writing, pending == nil else { dirty = true; return }
        let wait = Self.interval - Double(MonotonicClock.nanoseconds() &- lastWrite) / 1e9
        guard wait > 0 else { return write() }
        pending = engine.loop.after(wait) { [self] in
            pending = nil
            write()
        }
    }

    /// Takes the state as it is now (on the loop) and writes it on the state thread.
    private func write() {
        let status = engine.status(), queue = engine.queue()
        let positions = Dictionary(uniqueKeysWithValues: queue.items.enumerated().map { ($1.id, $0) })
        var state = SavedState(count: queue.items.count, current: status.index, positionMs: status.positionMs, volume: status.volume,
                               muted: status.muted, repeat: status.repeat, single: status.single, consume: status.consume,
                               crossfade: status.crossfade, outputEnabled: status.outputEnabled,
                               outputs: Dictionary(status.outputs.map { ($0.name, $0.enabled) }) { first, _ in first },
                               order: queue.order?.compactMap { positions[$0] })
        state.radio = status.radio
        state.radioSkips = status.radioSkips.isEmpty ? nil : status.radioSkips
        let file = TrackFile(header: state, tracks: queue.items.map(\.track))
        writing = true
        dirty = false
        lastWrite = MonotonicClock.nanoseconds()
        let (files, path, failing, log, loop) = (files, path, failing, engine.log, engine.loop)
        StateDisk.pool.run { [self] in
            let problem = files.save(file, to: path)
            let tell = failing.withLock { was in defer { was = problem != nil }; return problem != nil && !was }
            if tell, let problem { log(.warning, "state \(path) not written: \(problem); the previous state is kept, trying again at the next change") }
            loop.execute { [self] in
                writing = false
                if dirty { changed() }
            }
        }
    }

    // MARK: History

    private func pauseListening() {
        guard let since = listening?.since else { return }
        listening?.seconds += Double(MonotonicClock.nanoseconds() &- since) / 1e9
        listening?.since = nil
    }

    private func endListening() {
        pauseListening()
        guard let ended = listening, let history else { return }
        listening = nil
        guard ended.seconds >= Double(HistoryJournal.minimumSeconds) else { return }
        let entry = HistoryEntry(time: Int(time(nil)), track: ended.track, secondsHeard: Int(ended.seconds.rounded()))
        StateDisk.pool.run { history.append(entry) }
    }
}

