/// The gain each track plays at (loudness normalisation). It is chosen when the output is handed
/// the track (`play`, or `follow` for the gapless next one): the whole-clip measurement when it
/// exists (the prefetched neighbours are measured long before `next` reaches them), else for the
/// gapless follower the gain recent tracks needed (it must never hold the seam), else, for a cold
/// start, that same default as a provisional gain, faded in from silence at once, while the first
/// seconds are measured on a decoder thread (about 2 ms); their gain then takes over smoothly. A
/// cold start never waits for loudness. Once the output has read a track at a gain that is not
/// provisional, it keeps it: a seek or a reconnect keeps it too.
extension PlayerCore {
    mutating func chooseGain(_ id: SlotID, followsGaplessly: Bool, into effects: inout [Effect]) {
        guard let slot = slot(id) else { return }
        if let gain = slot.gain {
            effects.append(.setGain(id, gain, smoothly: false))
            return
        }
        let (gain, provisional) = normalizer.gain(for: slot.url, followsGaplessly: followsGaplessly)
        setSlotGain(id, gain, provisional: provisional)
        effects.append(.setGain(id, gain, smoothly: provisional))
        if provisional { effects.append(.estimateLoudness(id)) }
    }

    /// A whole-clip measurement arrived: kept while its preview is held, and given to the slots of
    /// that preview the output has not heard yet (or that play at a provisional gain).
    mutating func measured(_ url: String, _ loudness: Loudness?, into effects: inout [Effect]) {
        guard let loudness, downloads[url] != nil else { return }
        let gain = normalizer.measured(url, loudness)
        for slot in [current].compactMap({ $0 }) + prefetched.values where slot.url == url && slot.gain != nil {
            let unheard = !slot.heard && slot.id != outputSlot
            guard slot.gainIsProvisional || unheard else { continue }
            setSlotGain(slot.id, gain, provisional: false)
            effects.append(.setGain(slot.id, gain, smoothly: slot.gainIsProvisional))
        }
        notifyLoudness(url: url, into: &effects)
    }

    /// The estimate of a cold start's first seconds: its gain replaces the provisional one,
    /// unless a measurement came first.
    mutating func estimated(_ id: SlotID, _ estimate: Loudness?, into effects: inout [Effect]) {
        guard let slot = slot(id), slot.gainIsProvisional else { return }
        let gain = normalizer.gain(estimated: estimate)
        setSlotGain(id, gain, provisional: false)
        effects.append(.setGain(id, gain, smoothly: true))
        notifyLoudness(url: slot.url, into: &effects)
    }

    /// A gain chosen anew (the normalisation changed): final, the slot's heard state kept.
    mutating func resetGain(_ id: SlotID, _ gain: TrackGain) { setSlotGain(id, gain, provisional: false) }

    private mutating func setSlotGain(_ id: SlotID, _ gain: TrackGain, provisional: Bool) {
        update(id) {
            $0.gain = gain
            $0.gainIsProvisional = provisional
        }
    }

    private func notifyLoudness(url: String, into effects: inout [Effect]) {
        guard let slot = current, slot.url == url, let position, let report = loudnessReport(item: slot.item) else { return }
        effects.append(.notify(.loudness(index: position, report, id: slot.item)))
    }
}
