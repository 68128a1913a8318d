/// The heads of what the listener sees (`HeadPlan`, kept by `HeadsState`): brought in line with
/// the latest answer, the rows a front-end says are visible and the queue around the current track
/// after every change; adopted, bytes and parked decoder, by the load that plays their preview.
extension PlayerCore {
    /// A catalog answer was handed to a front-end (a search, a look, a lookup, the chart, `more`):
    /// its first results get heads, in place of the last answer's.
    public mutating func answered(_ results: [Track]) -> [Effect] {
        guard settings.heads.capacity > 0 else { return [] }
        return (try? command { core, _ in core.headsState.answered(core.sortOut(results).playable) }) ?? []
    }

    /// A front-end says which tracks are on screen now (the latest answer's or the queue's, by
    /// trackId, in screen order): their heads are kept instead of the answer's first ones. Ids
    /// previewd has not seen are left out.
    public mutating func show(trackIds: [Int]) -> [Effect] {
        guard settings.heads.capacity > 0 else { return [] }
        return (try? command { core, _ in core.headsState.show(trackIds: trackIds, queue: core.queue) }) ?? []
    }

    /// After every change: the heads wanted are held (new ones started within `maxTransfers`,
    /// once the current track's download has ended, as neighbours wait), the others let go.
    mutating func updateHeads(into effects: inout [Effect]) {
        let plan = settings.heads
        guard plan.capacity > 0 || !heads.isEmpty else { return }
        // A stopped track is where `play` starts: it wants a head of its own.
        let here = transport.isActive ? [] : position.map { [$0] } ?? []
        let reach = here + plan.positions(around: position, count: queue.count, beyond: settings.ahead + settings.behind)
        let around = reach.compactMap { i -> String? in
            guard let entry = queue[safe: i], entry.isPlayable else { return nil }
            return entry.track.fetchablePreviewURL
        }
        let wanted = headsState.wanted(plan, around: around, held: downloads.keys)
        headsState.keep(only: Set(wanted), into: &effects)
        guard current.map({ !window.isArriving($0.url) }) ?? true else { return }
        for url in headsState.startable(wanted, maxTransfers: plan.maxTransfers) {
            let id = window.newID()
            headsState.start(url, id: id)
            effects.append(.startHead(id, url: url, bytes: plan.headBytes, depthMs: settings.depthMs))
        }
    }

    /// The load of queue item `item` takes the head of `url`, if one is held: its slot (parked
    /// after its head, or still decoding it) and its download, which goes on to the whole preview.
    mutating func adoptHead(_ url: String, item: Int, into effects: inout [Effect]) -> Slot? {
        guard let head = takeHeadDownload(url, item: item, into: &effects) else { return nil }
        var slot = Slot(id: head.id, item: item, url: url, startMs: 0, phase: head.phase)
        slot.durationMs = head.durationMs
        return slot
    }

    /// The download of `url` is wanted whole, for queue item `item`: a head's goes on (its slot
    /// is the caller's to adopt or let go). Returns the head taken.
    mutating func takeHeadDownload(_ url: String, item: Int, into effects: inout [Effect]) -> Head? {
        guard let head = headsState.take(url) else { return nil }
        window.adoptDownload(url, complete: head.complete)
        effects.append(.widenDownload(url: url, trackId: queue[id: item]?.track.trackId))
        return head
    }
}
