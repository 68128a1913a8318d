import PreviewCore

/// Carrying out the effects the core returns, in order, on the objects that do the work.
extension Player {
    /// Carries out `effects` in order; what the engine learns while doing so (a measurement it
    /// already has, artwork already cached) goes back to the core afterwards.
    func run(_ effects: [PlayerCore.Effect]) {
        var learned: [PlayerCore.Event] = []
        var released = false
        for effect in effects {
            switch effect {
            case .startDownload(let url, let trackId):
                startDownload(url)
                if let known = loudness[LoudnessStore.key(trackId: trackId, url: url)] { learned.append(.measured(url: url, known)) }
            case .cancelDownload(let url):
                downloads.removeValue(forKey: url)?.cancel()
                released = true
            case .startSlot(let spec, let depthMs): startSlot(spec, depthMs: depthMs)
            case .startHead(let id, let url, let bytes, let depthMs): startHead(id, url: url, bytes: bytes, depthMs: depthMs)
            case .widenDownload(let url, let trackId):
                downloads[url]?.widen()
                if let known = loudness[LoudnessStore.key(trackId: trackId, url: url)] { learned.append(.measured(url: url, known)) }
                // Whole already (a small preview, the disk cache): its end came while it was a head.
                if downloads[url]?.bytes.isComplete == true { measureLoudness(url) }
            case .decodeWhole(let id): slots[id]?.decodeWhole()
            case .cancelSlot(let id):
                slots.removeValue(forKey: id)?.cancel()
                estimating.remove(id)
                released = true
            case .play(let id, let paused, let title, let artist):
                guard let slot = slots[id] else { continue }
                if switchCommandAt != nil, switchSlot == nil { switchSlot = id }
                sequencer.play(slot.pcm, paused: paused)
                sequencer.setMetadata(title: title, artist: artist)
            case .follow(let id): sequencer.enqueue(id.flatMap { slots[$0]?.pcm })
            case .pauseOutput: sequencer.pause()
            case .resumeOutput: sequencer.resume()
            case .stopOutput: sequencer.stop()
            case .setGain(let id, let gain, let smoothly):
                guard let pcm = slots[id]?.pcm else { continue }
                if smoothly { pcm.rampGain(to: gain.linear) } else { pcm.setGain(gain.linear) }
            case .estimateLoudness(let id): estimateLoudness(id)
            case .setVolume(let level, let muted): sequencer.setVolume(level, muted: boxMuted(muted))   // Player+PlayHere
            case .setCrossfade(let seconds): sequencer.setCrossfade(milliseconds: seconds * 1000)
            case .setOutputs(let switches): outputGroup?.setEnabled(switches)
            case .fetchArtwork(let urls): learned += fetchArtwork(urls)
            case .fetchNextPage: fetchNextPage()
            case .fetchRadio: fetchRadio()
            case .logFailure(let line): log(.warning, line)
            case .armRetry(let timer, let ms): armRetry(timer, afterMs: ms)
            case .disarmRetry(let timer): disarmRetry(timer)
            case .notify(let event): hub?.publish(event)
            }
            if case .notify(.state) = effect { updatePositionTicks(); watchForAGonePage() }
        }
        if released { MemoryTrim.afterRelease() }   // a ring or a download was just let go
        for event in learned { run(core.handle(event)) }
    }

    /// Downloads `url`; its end comes back as an engine event (neighbours wait for the current one's).
    @discardableResult
    private func startDownload(_ url: String, headBytes: Int? = nil) -> PreviewDownload {
        let download = PreviewDownload(url: url, fetcher: fetcher, limit: policy.maxPreviewBytes, cache: policy.cache, headBytes: headBytes)
        downloads[url] = download
        download.bytes.onEnd { [self, weak download] complete in post(.downloadEnded(url: url, complete: complete, download: download)) }
        return download
    }

    /// A head: the first `bytes` of `url` and a slot decoding its first `depthMs`, then parked.
    private func startHead(_ id: PlayerCore.SlotID, url: String, bytes: Int, depthMs: Int) {
        let download = startDownload(url, headBytes: bytes)
        download.bytes.onHold { [self, weak download] in post(.headFetched(url: url, download: download)) }
        slots[id] = PreviewSlot(id: id, startMs: 0, download: download, policy: policy, format: sequencer.format,
                                label: "head \(id)", depthMs: depthMs) { [self] id, event in post(.decoder(slot: id, event)) }
    }

    /// A decoder over the slot's download, reporting through the player's event stream.
    private func startSlot(_ spec: PlayerCore.Slot, depthMs: Int?) {
        guard let download = downloads[spec.url] else { return }
        let position = core.queue.position(ofID: spec.item) ?? -1
        let track = core.queue[id: spec.item]?.track
        let label = track?.trackId.map { "track \($0)" } ?? "queue item \(position)"
        if depthMs == nil {
            log(.info, "loading \(core.trackName(spec.item)) at \(spec.startMs) ms: \(TerminalText.sanitized(track?.displayName ?? label))")
        }
        slots[spec.id] = PreviewSlot(id: spec.id, startMs: spec.startMs, download: download, policy: policy, format: sequencer.format,
                                     label: label, depthMs: depthMs, crossfadeMs: core.crossfadeSeconds * 1000) { [self] id, event in
            post(.decoder(slot: id, event))
        }
    }

    /// What `status` shows of the slots.
    func slotReports() -> [SlotReport] {
        func report(_ slot: PlayerCore.Slot, _ role: String) -> SlotReport {
            let bytes = downloads[slot.url]?.bytes
            return SlotReport(index: core.queue.position(ofID: slot.item) ?? -1, trackId: core.queue[id: slot.item]?.track.trackId,
                              role: role, bytes: bytes?.receivedCount ?? 0, complete: bytes?.isComplete ?? false, state: "\(slot.phase)")
        }
        let upcoming = core.transport.upcoming(in: core.queue)
        let neighbours = core.prefetched.values.sorted { (core.queue.position(ofID: $0.item) ?? 0) < (core.queue.position(ofID: $1.item) ?? 0) }
        return (core.current.map { [report($0, "current")] } ?? [])
            + neighbours.map { report($0, $0.item == upcoming ? "next" : "previous") }
    }
}
