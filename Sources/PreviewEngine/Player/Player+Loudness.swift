import CPreviewLinux
import PreviewCore

/// Loudness normalisation: every preview is measured (EBU R128 integrated loudness and true peak,
/// the whole clip, on a worker) once its download is complete, and plays at one constant gain. The
/// gain is decided when the output is handed the track (`play`, or `follow` for the gapless next
/// one): the whole-clip measurement when it exists (the prefetched neighbours are measured long
/// before `next` reaches them), else, for a cold start, an estimate from the first seconds that
/// have arrived (about 2 ms on a decoder thread while the output gets ready; the buffer holds its
/// frames until then), else the gain recent tracks needed, never a boost. The buffer's first read
/// fixes it (`PCMBuffer.setGain`), and it is pinned to the track while the output plays it, so a
/// seek or a reconnect keeps it: a listener never hears it change within a track.
extension Player {
    /// Queues the whole-clip measurement of the preview at `url` (its download is complete), unless
    /// it is known. One runs at a time; the current track's goes first.
    func measureLoudness(_ url: String) {
        guard normalization.mode == .track, measuringURL != url, !measureQueue.contains(url) else { return }
        measureQueue.removeAll { downloads[$0] == nil }   // left the window meanwhile: bounded by the downloads held
        if url == core.current?.url { measureQueue.insert(url, at: 0) } else { measureQueue.append(url) }
        startNextMeasurement()
    }

    /// Starts the next queued measurement still wanted (its download still held, its track not
    /// measured); not while a cold start waits for its estimate, which must have the CPU first.
    private func startNextMeasurement() {
        guard !slots.values.contains(where: { $0.pcm.isAwaitingGain }) else { return }   // `estimated` calls again
        while measuringURL == nil, !measureQueue.isEmpty {
            let url = measureQueue.removeFirst()
            guard let bytes = downloads[url]?.bytes, bytes.isComplete, let key = loudnessKey(url: url), loudness[key] == nil else { continue }
            measuringURL = url
            let (format, stop) = (sink.format, measureCancellation)
            Self.meters.run { [self] in
                cpl_lower_thread_priority()   // background work: never ahead of a decoder or an estimate
                let measured = try? LoudnessScan.whole(bytes, format: format, cancellation: stop)
                post(.measured(url: url, key: key, measured ?? nil))
            }
        }
    }

    /// A whole-clip measurement arrived: kept, and given to the track's buffers the output has not read yet.
    func measured(url: String, key: String, _ measurement: Loudness?) {
        measuringURL = nil
        defer { startNextMeasurement() }
        guard let measurement else { return }   // silent or undecodable: the decoder says so when it matters
        loudness.record(measurement, for: key)
        let gain = normalization.gain(for: measurement)
        recentGains = Array((recentGains + [gain.db]).suffix(8))
        log(.debug, "measured \(url): \(measurement.integratedLUFS) LUFS, \(measurement.peakDB) dBTP → \(gain.db) dB")
        // Handed to the output but not heard yet (the gapless follower, or a cold start whose
        // estimate it overtook): the measured gain instead.
        let buffers = slots.values.filter { $0.download.url == url }.map(\.pcm)
        guard pinnedGains[url] != nil || buffers.contains(where: \.isAwaitingGain), !buffers.contains(where: \.isGainFixed) else { return }
        if buffers.allSatisfy({ $0.setGain(gain.linear) }) {
            pinnedGains[url] = gain
        } else if let pinned = pinnedGains[url] {   // the output read one meanwhile: they all keep the pinned gain
            buffers.forEach { $0.setGain(pinned.linear) }
        }
    }

    /// Sets the gain of slot `id`'s buffer before the output reads it, and pins it to the track:
    /// the track's pinned gain, else its measured one. Otherwise a gapless follower takes the
    /// default until its measurement comes (it must never hold the seam), and a track the output
    /// starts on holds its frames back while its first second is measured on a decoder thread, as
    /// the output gets ready.
    func prepareGain(for id: PlayerCore.SlotID, followsGaplessly: Bool) {
        guard let slot = slots[id] else { return }
        let url = slot.download.url
        if let gain = pinnedGains[url] ?? knownGain(url: url) ?? (followsGaplessly ? normalization.defaultGain(recent: recentGains) : nil) {
            slot.pcm.setGain(gain.linear)
            pinnedGains[url] = gain
            return
        }
        slot.pcm.awaitGain()
        let (bytes, format) = (slot.download.bytes, sink.format)
        PreviewDecoder.workers.run { [self] in
            post(.estimated(slot: id, LoudnessScan.estimate(bytes, format: format)))
        }
    }

    /// The estimate of a cold start's first seconds: its gain, unless a measurement came first.
    func estimated(slot id: PlayerCore.SlotID, _ estimate: Loudness?) {
        defer { startNextMeasurement() }
        guard let slot = slots[id], slot.pcm.isAwaitingGain else { return }
        let url = slot.download.url
        let gain = knownGain(url: url) ?? estimate.map { normalization.gain(for: $0) } ?? normalization.defaultGain(recent: recentGains)
        if let estimate { log(.debug, "estimated \(url) from its first seconds: \(estimate.integratedLUFS) LUFS → \(gain.db) dB") }
        slot.pcm.setGain(gain.linear)
        pinnedGains[url] = gain
    }

    /// Forgets the pins of tracks the output no longer plays or follows.
    func releaseGainPins() {
        let held = Set([core.current?.id, core.follower, core.outputSlot].compactMap { $0.flatMap { slots[$0]?.download.url } })
        pinnedGains = pinnedGains.filter { held.contains($0.key) }
    }

    /// What `status`, `info` and the events say about queue item `index`'s loudness.
    func loudnessReport(index: Int) -> LoudnessReport? {
        guard let url = core.queue[safe: index]?.track.fetchablePreviewURL else { return nil }
        let key = LoudnessStore.key(trackId: core.queue[safe: index]?.track.trackId, url: url)
        let gain = core.current?.index == index && core.current?.url == url ? pinnedGains[url] : nil
        return LoudnessReport(measured: loudness[key], gain: gain,
                              targetLUFS: normalization.mode == .track ? normalization.targetLUFS : nil)
    }

    /// The gain from the track's whole-clip measurement, if made (or unity with normalisation off).
    private func knownGain(url: String) -> TrackGain? {
        guard normalization.mode == .track else { return .off }
        return loudnessKey(url: url).flatMap { loudness[$0] }.map { normalization.gain(for: $0) }
    }

    /// The store's key for the track a held slot of `url` plays.
    private func loudnessKey(url: String) -> String? {
        let slot = core.current?.url == url ? core.current : core.prefetched.values.first { $0.url == url }
        return slot.map { LoudnessStore.key(trackId: core.queue[safe: $0.index]?.track.trackId, url: url) }
    }
}
