/// Radio (off by default): when the queue is about to end, a few previews chosen from the catalog
/// are appended (`RadioPicker`), early enough that the last track's follower is prefetched and the
/// join stays gapless. With `--autopage` the search's next page comes first; repeat and single
/// leave the queue as it is; consume does not stop radio.
extension PlayerCore {
    /// Turns radio on or off. Turning it on clears a held or exhausted batch.
    public mutating func setRadio(_ on: Bool) -> [Effect] {
        (try? command { core, effects in
            guard core.radio.on != on || core.radio.phase != .idle else { return }
            core.radio.on = on
            if core.radio.phase != .asking { core.radio.phase = .idle }
            core.radio.note = nil
            effects.append(.notify(.modes(core.transport.modes)))   // radio is a mode: status and the saved state follow
        }) ?? []
    }

    /// Settles again after something outside a command changed what radio waits for (an
    /// autopage that ended: radio follows the last page).
    public mutating func settleRadio() -> [Effect] {
        (try? command { _, _ in }) ?? []
    }

    /// Restores the quick skips counted before a restart.
    public mutating func restoreRadioSkips(_ skips: [String: Int]) {
        radio.restore(skips: skips)
    }

    /// Asks for a batch when radio is on and the queue is about to end: the current track is the
    /// last or the one before it in play order, nothing else would extend the queue, and the queue
    /// would end there (not under repeat or single).
    mutating func settleRadio(into effects: inout [Effect]) {
        switch radio.phase {
        case .held(let last, let playing):
            // Radio waits for the queue to end or to change at its end, or for the next track.
            guard !transport.isActive || queue.ids.last != last || transport.item != playing else { return }
            radio.phase = .idle
            radio.note = nil
        case .exhausted(let last):
            // Radio waits for the queue to end or to change at its end.
            guard !transport.isActive || queue.ids.last != last else { return }
            radio.phase = .idle
            radio.note = nil
        case .asking: return
        case .idle: break
        }
        // Not while playback waits for the network: the catalog would not answer either.
        guard radio.on, case .idle = radio.phase, hold.waiting == nil, transport.isActive, transport.playbackState != .paused, transport.repeatMode == .off, transport.single == .off,
              !(settings.autopage && paging != .none), let item = transport.item else { return }
        let next = transport.order.after(item, in: queue, wrap: false)
        guard next == nil || transport.order.after(next, in: queue, wrap: false) == nil else { return }
        radio.phase = .asking
        radio.batches += 1
        effects.append(.fetchRadio)
    }

    /// What the core knows that a batch starts from: the played tracks (the queue up to the current
    /// one, newest first), the queue and radio's recent picks to exclude, the queue's last artists,
    /// the skips and the leads called lately. The engine adds the marks, the history and the memory.
    public func radioInput() -> RadioPicker.Input {
        var input = RadioPicker.Input()
        let ids = transport.order.ids(in: queue)
        let upTo = transport.item.flatMap { ids.firstIndex(of: $0) } ?? (ids.count - 1)
        input.played = upTo >= 0 ? ids[...upTo].reversed().compactMap { queue[id: $0]?.track } : []
        input.excluded = Set(queue.items.compactMap(\.track.trackId) + radio.recentPicks)
        input.tail = ids.suffix(2).compactMap { queue[id: $0].map { RadioPicker.artist($0.track) } }
        input.skips = radio.skips
        input.recentlyCalled = Set(radio.recentlyCalled)
        return input
    }

    /// A batch ended: its picks are appended at the end of the queue, each with its reason (one
    /// change per reason), and radio waits for the next end, or says why it stopped.
    public mutating func radioEnded(_ result: RadioPicker.Result) -> [Effect] {
        (try? command { core, effects in
            var added = 0
            if core.radio.on {
                // The queue may have changed while the batch was chosen: a track queued meanwhile is left out.
                let queued = Set(core.queue.items.compactMap(\.track.trackId))
                let (playable, _) = core.sortOut(result.picks.map(\.track).filter { $0.trackId.map { !queued.contains($0) } ?? false })
                let reasons = Dictionary(result.picks.compactMap { p in p.track.trackId.map { ($0, p.reason) } }, uniquingKeysWith: { a, _ in a })
                if !playable.isEmpty, let ids = try? core.queue.insert(playable, at: core.queue.count) {
                    for (id, track) in zip(ids, playable) {
                        if let reason = track.trackId.flatMap({ reasons[$0] }) { core.queue.setReason(reason, ids: [id]) }
                    }
                    added = ids.count
                    effects.append(.notify(.queue(length: core.queue.count, version: core.queue.version)))
                    try? core.feed(.queueEdited(successor: nil), into: &effects)
                }
            }
            core.radio.ended(result, lastItem: core.queue.ids.last, playing: core.transport.item)
            if added == 0, case .found = result.outcome {
                core.radio.phase = .held(lastItem: core.queue.ids.last, playing: core.transport.item)   // every pick was refused: as a failure
            }
            if !core.radio.on { core.radio.phase = .idle }
        }) ?? []
    }

    /// `next` at `heardMs` into the current track: a radio track skipped within
    /// `RadioState.quickSkipMs` counts against its lead.
    public mutating func noteSkip(heardMs: Int) {
        guard heardMs < RadioState.quickSkipMs, let item = transport.item, let key = queue[id: item]?.reason?.key else { return }
        radio.skipped(key)
    }

    /// Why the current item came, if radio queued it.
    public var currentReason: String? { transport.item.flatMap { queue[id: $0]?.reason?.text } }
}
