import Foundation
import PreviewCore

/// The one owner of the engine's mutable state: the queue, the transport, the current slot. Commands
/// from the control socket and events from decoders and the output all come here, one at a time; each
/// becomes a `Transport` input, and the actions it returns are carried out here.
public actor Player {
    private let catalog: ITunesClient
    private let fetcher: PreviewFetcher
    private let sink: any AudioSink
    private let policy: FetchPolicy
    private let log: Log

    private var queue = PlayQueue()
    private var transport = Transport()
    private var current: PreviewSlot?
    private var download: (index: Int, download: PreviewDownload)?   // the current track's bytes
    private var durationMs: [RequestID: Int] = [:]
    private var lastError: String?

    /// A player searching `catalog`, fetching with `fetcher` and playing on `sink`.
    public init(catalog: ITunesClient, fetcher: PreviewFetcher, sink: any AudioSink,
                policy: FetchPolicy = FetchPolicy(), log: Log = Log()) {
        self.catalog = catalog
        self.fetcher = fetcher
        self.sink = sink
        self.policy = policy
        self.log = log
    }

    /// Routes the output's events to this player. Call once before the first command.
    public func attachOutput() {
        sink.setEventHandler { [weak self] event in
            Task { await self?.outputEvent(event) }
        }
    }

    // MARK: Commands

    /// Carries out `request` and answers it; the answer comes after the command is applied.
    public func respond(to request: ControlRequest) async -> ControlResponse {
        do {
            let command = try ControlCommand(request)
            return .success(id: request.id, try await handle(command))
        } catch let error as ControlError {
            return .failure(id: request.id, error)
        } catch {
            return .failure(id: request.id, ControlError(.internal, "\(error)"))
        }
    }

    /// Carries out `command`; returns its result.
    public func handle(_ command: ControlCommand) async throws -> JSONValue {
        switch command {
        case .hello: return try JSONValue(encoding: HelloReport.current)
        case .search(let term, let limit): try await search(term: term, limit: limit)
        case .play(let index): try apply(.play(index: index))
        case .pause: try apply(.pause)
        case .resume: try apply(.resume)
        case .toggle: try apply(.toggle)
        case .stop: try apply(.stop)
        case .next: try apply(.next)
        case .prev: try apply(.prev)
        case .seek(let target): try seek(target)
        case .status: break
        case .queue: return try JSONValue(encoding: QueueReport(index: transport.index, items: queue.items))
        }
        return try JSONValue(encoding: status())
    }

    /// State, position and the current track.
    public func status() -> StatusReport {
        let index = transport.index
        let request = transport.currentRequest
        var position = 0
        if let request, let slot = current, slot.request == request {
            let heard = transport.playbackState == .loading ? 0 : sink.format.milliseconds(frames: sink.playedFrames)
            position = slot.startMs + heard
        }
        let item = index.flatMap { queue[safe: $0] }
        return StatusReport(state: transport.playbackState, index: index, positionMs: position,
                            durationMs: request.flatMap { durationMs[$0] }, queueLength: queue.count,
                            track: item?.track, error: item?.failure ?? lastError, output: sink.statusText)
    }

    /// Stops playback and every download; for shutdown.
    public func shutdown() {
        current?.cancel()
        current = nil
        download?.download.cancel()
        download = nil
        sink.stop()
        fetcher.shutdown()
    }

    private func search(term: String, limit: Int) async throws {
        let results: [Track]
        do {
            results = try await catalog.searchSongs(term: term, limit: limit)
        } catch {
            log(.warning, "search failed: \(error.message)")
            throw ControlError(.catalog, error.message)
        }
        let tracks = results.filter { $0.wrapperType == nil || $0.wrapperType == "track" }
        guard !tracks.isEmpty else {
            throw ControlError(.noResults, "no results for \"\(TerminalText.sanitized(term))\"")
        }
        let replacement = PlayQueue(tracks: tracks)
        guard replacement.firstPlayable(from: 0) != nil else {
            throw ControlError(.noResults, "\(tracks.count) results for \"\(TerminalText.sanitized(term))\", none with a playable preview")
        }
        queue = replacement
        lastError = nil
        log(.info, "search \"\(TerminalText.sanitized(term))\": \(tracks.count) tracks queued")
        try apply(.queueReplaced(start: 0))
    }

    private func seek(_ target: SeekTarget) throws {
        guard let request = transport.currentRequest else { throw ControlError(.rejected, "nothing is playing") }
        let targetMs: Int
        switch target {
        case .absolute(let ms): targetMs = ms
        case .relative(let delta): targetMs = status().positionMs + delta
        }
        // Past the end is the next track, as when the track ends by itself.
        if let duration = durationMs[request], targetMs >= duration {
            try apply(.next)
            return
        }
        try apply(.seek(toMs: max(0, targetMs)))
    }

    // MARK: Transport

    private func apply(_ input: Transport.Input) throws {
        let actions: [Transport.Action]
        do {
            actions = try transport.handle(input, queue: queue)
        } catch {
            throw ControlError(.rejected, error.message)
        }
        for action in actions { perform(action) }
    }

    private func perform(_ action: Transport.Action) {
        switch action {
        case .load(let index, let request, let startMs):
            current?.cancel()
            current = nil
            guard let url = queue[safe: index]?.track.fetchablePreviewURL else { return }
            // A seek or a replay of the same track reads the bytes already downloaded.
            if let kept = download, kept.index != index || kept.download.url != url || kept.download.hasFailed {
                kept.download.cancel()
                download = nil
            }
            let bytes = download?.download ?? PreviewDownload(url: url, fetcher: fetcher, policy: policy)
            download = (index, bytes)
            log(.info, "loading \(index) at \(startMs) ms: \(TerminalText.sanitized(queue.items[index].track.displayName)) \(request)")
            current = PreviewSlot(request: request, index: index, startMs: startMs, download: bytes, policy: policy,
                                  format: sink.format) { [weak self] request, event in
                Task { await self?.decoderEvent(event, for: request) }
            }
        case .startOutput(let request, let paused):
            guard let slot = current, slot.request == request else { return }
            do {
                try sink.play(slot.pcm, tag: request, paused: paused)
            } catch {
                lastError = error.message
                log(.error, error.message)
            }
        case .pauseOutput: sink.pause()
        case .resumeOutput: sink.resume()
        case .stopOutput:
            sink.stop()
            current?.cancel()
            current = nil
            download?.download.cancel()
            download = nil
        case .markFailed(let index, let message):
            queue.markFailed(index, message: message)
            lastError = "track \(index): \(message)"
            log(.warning, "track \(index) failed: \(message)")
        }
    }

    // MARK: Engine events

    private func decoderEvent(_ event: PreviewDecoder.Event, for request: RequestID) {
        guard request == transport.currentRequest else { return }   // a load that is no longer current
        switch event {
        case .ready(let containerMs):
            if let containerMs, durationMs[request] == nil { durationMs[request] = containerMs }
            try? apply(.trackReady(request))
        case .finished(let frames):
            durationMs[request] = (current?.startMs ?? 0) + sink.format.milliseconds(frames: frames)
        case .failed(.cancelled, _):
            break
        case .failed(let error, let framesBefore):
            if framesBefore == 0 {
                try? apply(.trackFailed(request, error.message))
            } else {
                // Corrupt or cut off after good audio: what was decoded plays, then the track ends.
                log(.warning, "track stopped early: \(error.message)")
                durationMs[request] = (current?.startMs ?? 0) + sink.format.milliseconds(frames: framesBefore)
            }
        }
        durationMs = durationMs.filter { $0.key == request }
    }

    private func outputEvent(_ event: OutputEvent) {
        switch event {
        case .drained(let request):
            try? apply(.trackEnded(request))
        case .lost(let why):
            lastError = why
            log(.error, why)
        }
    }
}
