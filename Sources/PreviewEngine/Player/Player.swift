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
/// the audio sink. Catalog commands are in `Player+Catalog.swift`, engine events in
/// `Player+Events.swift`, what subscribers are told in `Player+Publish.swift`.
///
/// The actor runs on the engine loop (`unownedExecutor`): its jobs, the tasks it starts and the
/// loop's timers and descriptors share one thread, and nothing of the runtime's thread pool runs.
public actor Player {
    /// The engine loop: the player's executor and clock.
    nonisolated let loop: EngineLoop
    let catalog: ITunesClient
    let fetcher: PreviewFetcher
    let sink: any AudioSink
    let policy: FetchPolicy
    let log: Log
    /// Where events for subscribed clients go.
    let hub: EventHub?
    /// Fetch the next page of the last search when playback nears the end of the queue.
    let autopage: Bool
    /// The autopage call under way; shutdown waits for it.
    var autopaging: Task<Void, Never>?
    var lastSearch: LastSearch?
    var published = Published()
    /// Set by `shutdown`: engine events that come later change nothing.
    var isShutDown = false
    /// The next position tick, while a subscriber wants them and a track plays.
    var positionTimer: EngineLoop.TimerID?

    /// Every playback decision: queue, transport, slot table, downloads wanted, durations.
    var core: PlayerCore
    /// The decoding slots the core holds, by id.
    var slots: [PlayerCore.SlotID: PreviewSlot] = [:]
    /// The downloads the core wants, by URL.
    var downloads: [String: PreviewDownload] = [:]
    var lastError: String?
    var volume = 100
    var muted = false
    /// When the last command that changes the track arrived, and how long until its first frame
    /// was handed to the audio stream (the figure `next`/`prev` are judged by).
    var switchCommandAt: UInt64?
    var lastSwitchMicroseconds: Int?

    /// Loudness normalisation (`Player+Loudness.swift`): the policy, the measurements, the gain
    /// pinned to each track the output plays or follows (by URL), and the measurements to make.
    let normalization: LoudnessNormalization
    let loudness: LoudnessStore
    var pinnedGains: [String: TrackGain] = [:]
    var measureQueue: [String] = []
    var measuringURL: String?
    /// The gains the last measured tracks needed (the default for a track nothing is known of).
    var recentGains: [Double] = []
    /// Ends the measurements at shutdown.
    let measureCancellation = CancellationFlag()
    /// The one thread measuring loudness (about 4 ms of CPU per second of audio).
    static let meters = WorkerPool(name: "previewd.loudness", maxThreads: 1)
    /// The artwork of the current track and its neighbours (`Player+Artwork.swift`); nil: none is fetched.
    let artwork: ArtworkStore?
    /// Artwork fetches under way, by URL; shutdown waits for them.
    var artworkFetches: [String: Task<Void, Never>] = [:]

    /// A player on `loop`, searching `catalog`, fetching with `fetcher` and playing on `sink`, every
    /// track at the gain `normalization` asks for.
    public init(loop: EngineLoop, catalog: ITunesClient, fetcher: PreviewFetcher, sink: any AudioSink,
                policy: FetchPolicy = FetchPolicy(), normalization: LoudnessNormalization = LoudnessNormalization(),
                events: EventHub? = nil, artwork: ArtworkStore? = nil, autopage: Bool = false, log: Log = Log()) {
        self.loop = loop
        self.hub = events
        self.autopage = autopage
        self.catalog = catalog
        self.fetcher = fetcher
        self.sink = sink
        self.policy = policy
        self.log = log
        self.normalization = normalization
        self.artwork = artwork
        loudness = LoudnessStore(cache: policy.cache)
        core = PlayerCore(policy: .init(ahead: policy.prefetchAhead, behind: policy.prefetchBehind, headMs: policy.prefetchHeadMs))
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Routes the output's events here. Call once before the first command.
    public func start() {
        sink.setEventHandler { [self] event in post(.output(event)) }
        hub?.onPositionInterest = { [unowned self] in
            assumeIsolated { $0.positionInterestChanged() }   // called on the loop, the player's executor
        }
    }

    // MARK: Commands

    /// Carries out `command` as a client's, received at `received`: subscribers are told what
    /// changed, and a track change is timed. The one way in for every front-end (`EngineHandle`).
    public func perform(_ command: ControlCommand, received: UInt64 = MonotonicClock.nanoseconds()) async throws(ControlError) -> ControlResult {
        switch command {
        case .next, .prev, .play, .seek, .search, .lookup, .top: switchCommandAt = received
        default: break
        }
        do {
            defer { publishChanges() }
            return try await handle(command)
        } catch {
            throw controlError(error)
        }
    }

    /// What a front-end is told of `error`. A catalog failure is logged and published as an `error`
    /// event here, whoever asked (the socket, MPRIS, the start-up search).
    private func controlError(_ error: any Error) -> ControlError {
        switch error {
        case let error as ControlError:
            return error
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
        case .more: return .catalog(try await more())
        case .info(let item): return .info(try await info(item.map(core.queue.position)))
        case .artwork(let item, let width, let height): return .artwork(try await artworkThumbnail(item.map(core.queue.position), width: width, height: height))
        case .share: return .share(try share())
        case .clear: try clear()
        case .remove(let item): remove(try core.queue.position(of: item))
        case .move(let from, let to): move(from: try core.queue.position(of: from), to: try core.queue.position(of: to))
        case .subscribe: throw ControlError(.badRequest, "subscribe is answered by the socket server")
        case .play(let item): try apply(.play(index: item.map(core.queue.position)))
        case .pause: try apply(.pause)
        case .resume: try apply(.resume)
        case .toggle: try apply(.toggle)
        case .stop: try apply(.stop)
        case .next: try apply(.next)
        case .prev: try apply(.prev)
        case .seek(let target): try seek(target)
        case .volume(let change): changeVolume(change)
        case .mute(let on):
            muted = on ?? !muted
            sink.setVolume(volume, muted: muted)
        case .setRepeat(let mode): try apply(.setRepeat(mode))
        case .setShuffle(let on): try apply(.setShuffle(on, seed: UInt64.random(in: 0...UInt64.max)))
        case .status: break
        case .queue: return .queue(QueueReport(index: core.transport.index, queue: core.queue))
        case .memory: return .memory(memoryReport())
        }
        return .status(status())
    }

    /// State, position, the current track and what is held in memory.
    public func status() -> StatusReport {
        let index = core.transport.index
        let item = index.flatMap { core.queue[safe: $0] }
        var report = StatusReport(state: core.transport.playbackState, index: index, positionMs: positionMs(),
                                  durationMs: core.currentDurationMs, queueLength: core.queue.count,
                                  track: item?.track, error: item?.failure ?? lastError, output: sink.statusText)
        report.id = item?.id
        report.queueVersion = core.queue.version
        report.buffering = core.transport.buffering
        report.volume = volume
        report.muted = muted
        report.repeat = core.transport.repeatMode
        report.shuffle = core.transport.order.isShuffled
        report.slots = slotReports()
        report.loudness = index.flatMap { loudnessReport(index: $0) }
        report.artwork = index.flatMap { artworkPath(index: $0) }
        report.hasNext = core.transport.order.after(index, in: core.queue, wrap: core.transport.repeatMode == .all) != nil
        if let since = switchCommandAt, let started = sink.currentFeedStartedAt, started >= since {
            lastSwitchMicroseconds = Int((started - since) / 1000)
            switchCommandAt = nil
        }
        report.switchMicroseconds = lastSwitchMicroseconds
        return report
    }

    /// What has been heard of the current track.
    func positionMs() -> Int {
        if core.transport.outputLost, let lost = core.heardAtLossMs { return lost }
        guard let slot = core.current, core.transport.currentRequest != nil else { return 0 }
        guard let pcm = slots[slot.id]?.pcm, sink.currentFeed == ObjectIdentifier(pcm) else { return slot.startMs }
        return slot.startMs + sink.format.milliseconds(frames: sink.playedFrames)
    }

    /// Hands an engine event (from a decoder, a download or the output's thread) to the player, on
    /// the engine loop, in the order they were posted.
    nonisolated func post(_ event: PlayerEvent) {
        loop.execute { [self] in
            assumeIsolated { player in
                guard !player.isShutDown else { return }
                player.handle(event)
                player.publishChanges()
            }
        }
    }

    /// Stops playback and every download; for shutdown.
    public func shutdown() async {
        if let positionTimer { loop.cancel(positionTimer) }
        positionTimer = nil
        sink.stop()
        slots.values.forEach { $0.cancel() }
        slots = [:]
        downloads.values.forEach { $0.cancel() }
        downloads = [:]
        measureCancellation.cancel()
        PreviewDecoder.waitUntilAllEnded()   // cancelled: each ends at its next read, wait or packet
        Self.meters.waitUntilIdle()
        isShutDown = true
        sink.setEventHandler { _ in }   // it held the player
        fetcher.shutdown()
        catalog.shutdown()
        // The network is closed, so the player's own tasks end at once; each must end before the
        // loop stops, or it would hold the player forever.
        for task in Array(artworkFetches.values) + [autopaging].compactMap({ $0 }) { await task.value }
        policy.cache?.flush()   // the last previews and measurements reach the disk
    }

    private func seek(_ target: SeekTarget) throws {
        guard core.transport.currentRequest != nil else { throw ControlError(.rejected, "nothing is playing") }
        let targetMs: Int
        switch target {
        case .absolute(let ms): targetMs = ms
        case .relative(let delta): targetMs = positionMs() + delta
        }
        // Past the end is the next track, as when the track ends by itself.
        if let duration = core.currentDurationMs, targetMs >= duration {
            try apply(.next)
            return
        }
        try apply(.seek(toMs: max(0, targetMs)))
    }

    private func changeVolume(_ change: VolumeChange?) {
        switch change {
        case .set(let level)?: volume = level
        case .by(let delta)?: volume = min(100, max(0, volume + delta))
        case nil: return
        }
        sink.setVolume(volume, muted: muted)
    }
}
