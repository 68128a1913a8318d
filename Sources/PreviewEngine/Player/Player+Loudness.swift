import CPreviewLinux
import PreviewCore

/// Loudness measurements: every preview is measured (EBU R128 integrated loudness and true peak,
/// the whole clip, on a worker) once its download is complete, and kept (`LoudnessStore`); a cold
/// start's first seconds are estimated on a decoder thread. Which gain a track plays at is the
/// core's decision (`PlayerCore+Loudness.swift`); this carries out the measuring.
extension Player {
    /// Queues the whole-clip measurement of the preview at `url` (its download is complete), unless
    /// it is known. One runs at a time; the current track's goes first.
    func measureLoudness(_ url: String) {
        guard core.policy.normalization.mode == .track, measuringURL != url, !measureQueue.contains(url) else { return }
        measureQueue.removeAll { downloads[$0] == nil }   // left the window meanwhile: bounded by the downloads held
        if url == core.current?.url { measureQueue.insert(url, at: 0) } else { measureQueue.append(url) }
        startNextMeasurement()
    }

    /// Starts the next queued measurement still wanted (its download still held, its track not
    /// measured); not while a cold start's estimate runs, which must have the CPU first.
    func startNextMeasurement() {
        guard estimating.isEmpty else { return }   // `estimated` calls again
        while measuringURL == nil, !measureQueue.isEmpty {
            let url = measureQueue.removeFirst()
            guard let bytes = downloads[url]?.bytes, bytes.isComplete, let key = loudnessKey(url: url), loudness[key] == nil else { continue }
            measuringURL = url
            let (format, stop) = (sequencer.format, measureCancellation)
            Self.meters.run { [self] in
                cpl_lower_thread_priority()   // background work: never ahead of a decoder or an estimate
                let measured = try? LoudnessScan.whole(bytes, format: format, cancellation: stop)
                post(.measured(url: url, key: key, measured ?? nil))
            }
        }
    }

    /// A whole-clip measurement arrived: kept, and told to the core.
    func measured(url: String, key: String, _ measurement: Loudness?) {
        measuringURL = nil
        defer { startNextMeasurement() }
        guard let measurement else { return }   // silent or undecodable: the decoder says so when it matters
        loudness.record(measurement, for: key)
        log(.debug, "measured \(url): \(measurement.integratedLUFS) LUFS, \(measurement.peakDB) dBTP")
        run(core.handle(.measured(url: url, measurement)))
    }

    /// Measures the first seconds that have arrived of slot `id`'s preview, on a decoder thread.
    func estimateLoudness(_ id: PlayerCore.SlotID) {
        guard let slot = slots[id] else { return }
        estimating.insert(id)
        let (bytes, format) = (slot.download.bytes, sequencer.format)
        PreviewDecoder.workers.run { [self] in
            post(.estimated(slot: id, LoudnessScan.estimate(bytes, format: format)))
        }
    }

    /// What `info` says about queue item `item`'s loudness (measured long ago counts too).
    func loudnessReport(item: Int) -> LoudnessReport? {
        guard let track = core.queue[id: item]?.track, let url = track.fetchablePreviewURL else { return nil }
        return core.loudnessReport(item: item, known: loudness[LoudnessStore.key(trackId: track.trackId, url: url)])
    }

    /// The store's key for the track a held slot of `url` plays.
    private func loudnessKey(url: String) -> String? {
        let slot = core.current?.url == url ? core.current : core.prefetched.values.first { $0.url == url }
        return slot.map { LoudnessStore.key(trackId: core.queue[id: $0.item]?.track.trackId, url: url) }
    }
}
