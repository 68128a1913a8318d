import PreviewCore

/// Feeding the core and carrying out the effects it returns, on the objects that do the work.
extension Player {
    /// Applies a transport command; a refusal becomes the client's error.
    func apply(_ input: Transport.Input) throws {
        do {
            run(try core.apply(input))
        } catch {
            throw ControlError(.rejected, error.message)
        }
    }

    /// Carries out `effects` in order.
    func run(_ effects: [PlayerCore.Effect]) {
        for effect in effects {
            switch effect {
            case .startDownload(let url): startDownload(url)
            case .cancelDownload(let url): downloads.removeValue(forKey: url)?.cancel()
            case .startSlot(let spec, let headMs): startSlot(spec, headMs: headMs)
            case .decodeWhole(let id): slots[id]?.decodeWhole()
            case .cancelSlot(let id): slots.removeValue(forKey: id)?.cancel()
            case .play(let id, let paused):
                guard let slot = slots[id] else { continue }
                let track = core.current.flatMap { core.queue[safe: $0.index] }?.track
                prepareGain(for: id, followsGaplessly: false)
                sink.play(slot.pcm, paused: paused)
                sink.setMetadata(title: track?.trackName, artist: track?.artistName)
                if !core.transport.outputLost { lastError = nil }
            case .follow(let id):
                if let id { prepareGain(for: id, followsGaplessly: true) }
                sink.enqueue(id.flatMap { slots[$0]?.pcm })
            case .pauseOutput: sink.pause()
            case .resumeOutput: sink.resume()
            case .stopOutput: sink.stop()
            case .trackFailed(let index, let message, let neighbour):
                let line = "track \(index): \(message)"
                if !neighbour { lastError = line }
                publishError(line)
                log(.warning, neighbour ? "track \(index) failed while prefetching: \(message)" : "track \(index) failed: \(message)")
            }
        }
        releaseGainPins()
    }

    /// Downloads `url`; its end comes back as an engine event (neighbours wait for the current one's).
    private func startDownload(_ url: String) {
        let download = PreviewDownload(url: url, fetcher: fetcher, limit: policy.maxPreviewBytes, cache: policy.cache)
        downloads[url] = download
        download.bytes.onEnd { [self] complete in post(.downloadEnded(url: url, complete: complete)) }
    }

    /// A decoder over the slot's download, reporting through the player's event stream.
    private func startSlot(_ spec: PlayerCore.Slot, headMs: Int?) {
        guard let download = downloads[spec.url] else { return }
        let label = core.queue[safe: spec.index]?.track.trackId.map { "track \($0)" } ?? "queue item \(spec.index)"
        if headMs == nil {
            log(.info, "loading \(spec.index) at \(spec.startMs) ms: \(TerminalText.sanitized(core.queue[safe: spec.index]?.track.displayName ?? label))")
        }
        slots[spec.id] = PreviewSlot(id: spec.id, startMs: spec.startMs, download: download, policy: policy, format: sink.format,
                                     label: label, headMs: headMs) { [self] id, event in post(.decoder(slot: id, event)) }
    }

    /// What `status` shows of the slots.
    func slotReports() -> [SlotReport] {
        func report(_ slot: PlayerCore.Slot, _ role: String) -> SlotReport {
            let bytes = downloads[slot.url]?.bytes
            return SlotReport(index: slot.index, trackId: core.queue[safe: slot.index]?.track.trackId, role: role,
                              bytes: bytes?.receivedCount ?? 0, complete: bytes?.isComplete ?? false, state: "\(slot.phase)")
        }
        let upcoming = core.transport.upcoming(in: core.queue)
        return (core.current.map { [report($0, "current")] } ?? [])
            + core.prefetched.sorted { $0.key < $1.key }.map { report($0.value, $0.key == upcoming ? "next" : "previous") }
    }
}
