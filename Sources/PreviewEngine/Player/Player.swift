#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// The engine's executor: commands from the control socket and events from decoders, downloads and
/// the output all come here, one at a time. Every playback decision is `PlayerCore`'s (a value in
/// PreviewCore, tested without threads or audio); the player feeds it and carries out the effects
/// it returns (`Player+Effects.swift`) on the objects that do the work: downloads, decoding slots,
/// the output sequencer, the front-ends' event hub. Nothing here decides: it maps ids to objects and
/// carries effects out. Catalog calls are in `Player+Catalog.swift`, engine events in
/// `Player+Events.swift`, position ticks in `Player+Position.swift`.
///
/// The actor runs on the engine loop (`unownedExecutor`): its jobs, the tasks it starts and the
/// loop's timers and descriptors share one thread, and nothing of the runtime's thread pool runs.
public actor Player {
    /// The engine loop: the player's executor and clock.
    nonisolated let loop: EngineLoop
    let catalog: ITunesClient
    let fetcher: PreviewFetcher
    let sequencer: OutputSequencer
    let policy: FetchPolicy
    let log: Log
    /// Where events for subscribed clients go.
    let hub: EventHub?
    /// The autopage call under way; shutdown waits for it.
    var autopaging: Task<Void, Never>?
    /// The radio batch under way (`Player+Radio`); shutdown waits for it.
    var radioBatch: Task<Void, Never>?
    var lastSearch: LastSearch?
    /// The last search that only answered (`"queue": false`), for `more` with `"queue": false`.
    var lastLook: LastSearch?
    /// Set by `shutdown`: engine events that come later change nothing.
    var isShutDown = false
    /// The next position tick, while a front-end wants them and a track plays.
    var positionTimer: EngineLoop.TimerID?
    /// The hold's retry timers (`Player+Retry.swift`): the only wake-ups while the network is away.
    var retryTimers: [NetworkHold.Timer: EngineLoop.TimerID] = [:]
    /// The queue item playback waits at and when its first try failed (monotonic nanoseconds).
    var waitBegan: (item: Int, at: UInt64)?

    /// Every playback decision: queue, transport, loads, downloads wanted, volume, gains, errors.
    var core: PlayerCore
    /// The decoding slots the core holds, by id.
    var slots: [PlayerCore.SlotID: PreviewSlot] = [:]
    /// The downloads the core wants, by URL.
    var downloads: [String: PreviewDownload] = [:]
    /// When the last command that changes the track arrived, and how long until its first frame
    /// was handed to the audio stream (the figure `next`/`prev` are judged by).
    var switchCommandAt: UInt64?
    /// The load the output was handed first after that command (the one whose start is timed).
    var switchSlot: PlayerCore.SlotID?

    /// Loudness measurements (`Player+Loudness.swift`): the store, the previews to measure, the
    /// one being measured. Which gain a track plays at is the core's decision.
    let loudness: LoudnessStore
    var measureQueue: [String] = []
    var measuringURL: String?
    /// Cold starts whose first seconds are being measured; whole-clip measurements wait for them.
    var estimating: Set<PlayerCore.SlotID> = []
    /// Ends the measurements at shutdown.
    let measureCancellation = CancellationFlag()
    /// The one thread measuring loudness (about 4 ms of CPU per second of audio).
    static let meters = WorkerPool(name: "previewd.loudness", maxThreads: 1)
    /// The artwork store (`Player+Artwork.swift`); nil: none is fetched.
    let artwork: ArtworkStore?
    /// Artwork fetches under way, by URL; shutdown waits for them.
    var artworkFetches: [String: Task<Void, Never>] = [:]
    /// The saved lists and the shortlist (`Player+Lists.swift`); nil: none.
    let lists: ListStore?
    /// The history of previews heard; nil: none is kept.
    let history: HistoryJournal?
    /// The latest chart and the recent searches, for `library`.
    var recent = RecentAnswers()
    /// The shortlist's tracks as `library` last read them; nil after a list command changed lists.
    var markedCache: [Track]?
    /// A page that plays the queue itself, its clock and its downloads (`Player+PlayHere.swift`).
    var playHere = PlayHereState()

    /// A player on `loop`, searching `catalog`, fetching with `fetcher` and playing through `sequencer`, every
    /// track at the gain `normalization` asks for; a page playing here that says nothing for
    /// `pageSilenceMs` is taken for gone.
    public init(loop: EngineLoop, catalog: ITunesClient, fetcher: PreviewFetcher, sequencer: OutputSequencer,
                policy: FetchPolicy = FetchPolicy(), normalization: LoudnessNormalization = LoudnessNormalization(),
                events: EventHub? = nil, artwork: ArtworkStore? = nil, lists: ListStore? = nil, history: HistoryJournal? = nil,
                autopage: Bool = false, crossfadeSeconds: Int = 0, pageSilenceMs: Int = PageClaim.silenceLimitMs, log: Log = Log()) {
        self.loop = loop
        playHere.silenceLimitMs = max(PageClaim.silenceFloorMs, pageSilenceMs)
        self.hub = events
        self.catalog = catalog
        self.fetcher = fetcher
        self.sequencer = sequencer
        self.policy = policy
        self.log = log
        self.artwork = artwork
        self.lists = lists
        self.history = history
        loudness = LoudnessStore(cache: policy.cache)
        var decisions = PlayerCore.Policy(ahead: policy.prefetchAhead, behind: policy.prefetchBehind, depthMs: policy.prefetchDepthMs)
        decisions.normalization = normalization
        decisions.autopage = autopage
        decisions.localOrigin = fetcher.localOrigin
        decisions.heads = policy.heads
        var made = PlayerCore(policy: decisions)
        made.configureOutputs((sequencer.output as? OutputGroup)?.members.count ?? 1)
        core = made
        // `--crossfade`, before anything plays (a saved one comes later, through the verbs).
        if let effects = try? core.setCrossfade(crossfadeSeconds), !effects.isEmpty { sequencer.setCrossfade(milliseconds: crossfadeSeconds * 1000) }
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Routes the output's events here. Call once before the first command.
    public func start() {
        sequencer.setEventHandler { [self] event in post(.output(event)) }
        hub?.onPositionInterest = { [unowned self] in
            assumeIsolated { $0.positionInterestChanged() }   // called on the loop, the player's executor
        }
    }

    // MARK: Commands

    /// Carries out `command` as a client's, received at `received`: subscribers are told what
    /// changed, and a track change is timed. The one way in for every front-end (`EngineHandle`).
    public func perform(_ command: ControlCommand, received: UInt64 = MonotonicClock.nanoseconds()) async throws(ControlError) -> ControlResult {
        if Self.mayChangeTrack(command) {
            switchCommandAt = received
            switchSlot = nil
        }
        do {
            return try await noticingMet { try await handle(command) }
        } catch {
            throw controlError(error)
        }
    }

    /// Commands whose track change is timed (`switchMicroseconds`).
    private static func mayChangeTrack(_ command: ControlCommand) -> Bool {
        switch command {
        case .next, .prev, .play, .seek: return true
        case .add(_, let enqueue): return enqueue.start != nil
        case .search(_, let enqueue), .lookup(_, let enqueue), .top(_, let enqueue): return enqueue.queue
        default: return false
        }
    }

    /// What a front-end is told of `error`. A catalog failure is logged and published as an `error`
    /// event here, whoever asked (the socket, MPRIS, the start-up search).
    private func controlError(_ error: any Error) -> ControlError {
        switch error {
        case let error as ControlError:
            return error
        case CatalogError.stopping:   // the answer says so; nothing for the log to warn of
            log(.info, "catalog: \(CatalogError.stopping.message)")
            return CatalogError.stopping.controlError
        case let error as CatalogError:
            log(.warning, "catalog: \(error.message)")
            publishError(error.message)
            return error.controlError
        default:
            return ControlError(.internal, "\(error)")
        }
    }

    /// Carries out `command`; returns its result (a front-end shows it as it likes).
    func handle(_ command: ControlCommand) async throws -> ControlResult {
        switch command {
        case .hello: return .hello(HelloReport.current)
        case .search(let query, let enqueue): return .catalog(try await search(query, enqueue))
        case .lookup(let query, let enqueue): return .catalog(try await lookup(query, enqueue))
        case .top(let query, let enqueue): return .catalog(try await top(query, enqueue))
        case .more(let queue): return .catalog(try await more(queue: queue))
        case .add(let source, let enqueue): return .added(try await add(source, enqueue))
        case .visible(let trackIds): run(core.show(trackIds: trackIds))
        case .info(let item): return .info(try await info(item.map { ref throws(ControlError) in try core.queue.id(of: ref) }))
        case .artwork(let item, let width, let height):
            return .artwork(try await artworkThumbnail(item.map { ref throws(ControlError) in try core.queue.id(of: ref) }, width: width, height: height))
        case .artworkFile(let item, let offset):
            return .artworkFile(try await artworkFile(item.map { ref throws(ControlError) in try core.queue.id(of: ref) }, offset: offset))
        case .trackArtworkFile(let trackId, let small, let offset):
            return .artworkFile(try await artworkFile(trackId: trackId, small: small, offset: offset))
        case .audioFile(let item, let offset): return .audioFile(try await audioFile(item: item, offset: offset))
        case .playHere(let command): try playHereCommand(command)
        case .share: return .share(try share())
        case .clear:
            lastSearch = nil
            run(core.clear())
        case .remove(let item): run(try core.remove(item))
        case .shuffleQueue(let range): run(try core.shuffleQueue(range, seed: UInt64.random(in: 0...UInt64.max)))
        case .move(let from, let to): run(try core.move(from, to: to))
        case .swap(let a, let b): run(try core.swap(a, b))
        case .setPriority(let priority, let refs): run(try core.setPriority(priority, of: refs))
        case .clearError: run(core.clearError())
        case .setOutput(let enabled): run(core.setOutput(enabled: enabled))
        case .switchOutput(let output, let enabled): run(try core.setOutput(id: output, enabled: enabled))
        case .setNormalization(let mode): run(core.setNormalization(mode))
        case .subscribe: throw ControlError(.badRequest, "subscribe is answered by the socket server")
        case .play(let item, let startMs, let paused): run(try core.play(item, startMs: startMs, paused: paused))
        case .pause: run(try core.apply(.pause))
        case .resume: run(try core.apply(.resume))
        case .toggle: run(try core.apply(.toggle))
        case .stop: run(try core.apply(.stop))
        case .next:
            core.noteSkip(heardMs: positionMs())
            run(try core.apply(.next))
        case .prev: run(try core.apply(.prev))
        case .seek(let target): run(try core.seek(target, heardMs: positionMs()))
        case .volume(let change): run(core.changeVolume(change))
        case .mute(let on): run(core.mute(on))
        case .setRepeat(let mode): run(try core.apply(.setRepeat(mode)))
        case .setShuffle(let on): run(try core.apply(.setShuffle(on, seed: UInt64.random(in: 0...UInt64.max))))
        case .setSingle(let mode): run(try core.apply(.setSingle(mode)))
        case .setConsume(let on): run(try core.apply(.setConsume(on)))
        case .setRadio(let on, let skips): setRadio(on, skips: skips)
        case .crossfade(let seconds?): run(try core.setCrossfade(seconds))
        case .crossfade(nil): break
        case .status: break
        case .shuffleOrder(let ids): run(try core.apply(.setShuffleOrder(ids)))
        case .save, .load, .lists, .forget, .rename, .listAdd, .listMove, .listRemove, .mark, .unmark, .history: return try await listCommand(command)
        case .queue(nil): return .queue(queueReport())
        case .queue(let since?): return .queueChanges(QueueChangesReport(core.queue, since: since))
        case .memory: return .memory(memoryReport())
        case .library: return .library(await library())
        }
        return .status(status())
    }

    /// State, position, the current track and what is held in memory. Reading it changes nothing.
    public func status() -> StatusReport {
        let index = core.position
        let item = core.transport.item.flatMap { core.queue[id: $0] }
        var report = StatusReport(state: core.transport.playbackState, index: index, positionMs: positionMs(),
                                  durationMs: core.currentDurationMs, queueLength: core.queue.count,
                                  track: item?.track, error: item?.failure ?? core.lastError, output: sequencer.statusText)
        report.id = item?.id
        report.queueVersion = core.queue.version
        report.buffering = core.transport.buffering
        report.volume = core.volume
        report.muted = core.muted
        report.repeat = core.transport.repeatMode
        report.shuffle = core.transport.order.isShuffled
        report.slots = slotReports()
        report.loudness = item.flatMap { core.loudnessReport(item: $0.id) }
        report.artwork = core.currentArtworkPath
        report.hasNext = core.transport.next(in: core.queue) != nil
        report.nextId = core.transport.following(in: core.queue)
        report.nextIndex = report.nextId.flatMap(core.queue.position(ofID:))
        report.single = core.transport.single
        report.consume = core.transport.consume
        report.outputEnabled = core.outputEnabled
        report.outputs = outputReports()
        report.normalization = core.policy.normalization.mode
        report.crossfade = core.crossfadeSeconds
        report.marked = lists?.isMarked(item?.track.trackId) ?? false
        if core.transport.isActive { report.audio = "\(sequencer.format.sampleRate):f:\(sequencer.format.channels)" }
        report.switchMicroseconds = switchMicroseconds()
        report.waiting = core.hold.waiting.flatMap { core.waitingReport(waitedMs: WallClock.unixMilliseconds() - $0.sinceUnixMs) }
        report.radio = core.radio.on
        report.radioNote = core.radio.note
        report.reason = core.currentReason
        report.radioSkips = core.radio.skips
        report.playHere = playHere.claim.map(PlayHereReport.init)
        return report
    }

    /// The queue, which item is current, and the shuffled order.
    public func queueReport() -> QueueReport {
        QueueReport(index: core.position, queue: core.queue, order: core.transport.order)
    }

    /// How long the last track change took, command to first frame handed to the output.
    private func switchMicroseconds() -> Int? {
        guard let since = switchCommandAt, let id = switchSlot, sequencer.currentFeed == id,
              let started = sequencer.currentFeedStartedAt, started >= since else { return nil }
        return Int((started - since) / 1000)
    }

    /// What has been heard of the current track (by the page's clock while a page plays here).
    func positionMs() -> Int {
        pageClockMs() ?? boxPositionMs()
    }

    /// What the box's own output has played of the current track.
    func boxPositionMs() -> Int {
        if core.transport.outputLost, let lost = core.heardAtLossMs { return lost }
        guard let slot = core.current else { return 0 }
        guard sequencer.currentFeed == slot.id else { return slot.startMs }
        return slot.startMs + sequencer.format.milliseconds(frames: sequencer.playedFrames)
    }

    /// Hands an engine event (from a decoder, a download or the output's thread) to the player, on
    /// the engine loop, in the order they were posted.
    nonisolated func post(_ event: PlayerEvent) {
        loop.execute { [self] in
            assumeIsolated { player in
                guard !player.isShutDown else { return }
                player.handle(event)
            }
        }
    }

    /// Stops playback and every download; for shutdown.
    public func shutdown() async {
        if let positionTimer { loop.cancel(positionTimer) }
        positionTimer = nil
        disarmAllRetries()
        sequencer.stop()
        slots.values.forEach { $0.cancel() }
        slots = [:]
        downloads.values.forEach { $0.cancel() }
        downloads = [:]
        playHere.ownDownloads.forEach { $0.download.cancel() }
        playHere.ownDownloads = []
        if let timer = playHere.goneTimer { loop.cancel(timer) }
        measureCancellation.cancel()
        isShutDown = true
        // Cancelled, each decoder ends at its next read, wait or packet: waited for off the loop,
        // which goes on serving meanwhile.
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            startThread(named: "previewd.stop") {
                PreviewDecoder.waitUntilAllEnded()
                Self.meters.waitUntilIdle()
                ended.resume()
            }
        }
        sequencer.setEventHandler { _ in }   // it held the player
        fetcher.shutdown()
        catalog.shutdown()
        // The network is closed, so the player's own tasks end at once; each must end before the
        // loop stops, or it would hold the player forever.
        for task in Array(artworkFetches.values) + [autopaging, radioBatch].compactMap({ $0 }) { await task.value }
        policy.cache?.flush()   // the last previews and measurements reach the disk
    }
}
