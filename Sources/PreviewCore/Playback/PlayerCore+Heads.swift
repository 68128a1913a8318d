/// The heads of what the listener sees (`HeadPlan`): brought in line with the latest answer, the
/// rows a front-end says are visible and the queue around the current track after every change;
/// adopted, bytes and parked decoder, by the load that plays their preview.
extension PlayerCore {
    /// The most results of one answer remembered for heads and for `visible`'s track ids.
    static let maxShown = 200
    /// The most failed heads remembered (not asked for again until played).
    static let maxFailedHeads = 256

    /// A catalog answer was handed to a front-end (a search, a look, a lookup, the chart, `more`):
    /// its first results get heads, in place of the last answer's.
    public mutating func answered(_ results: [Track]) -> [Effect] {
        guard policy.heads.capacity > 0 else { return [] }
        return (try? command { core, _ in
            var urls: [String] = [], byTrackId: [Int: String] = [:]
            for track in core.sortOut(results).playable.prefix(Self.maxShown) {
                guard let url = track.fetchablePreviewURL else { continue }
                urls.append(url)
                if let id = track.trackId { byTrackId[id] = url }
            }
            core.shown = urls
            core.shownByTrackId = byTrackId
            core.visible = nil
        }) ?? []
    }

    /// A front-end says which tracks are on screen now (the latest answer's or the queue's, by
    /// trackId, in screen order): their heads are kept instead of the answer's first ones. Ids
    /// previewd has not seen are left out.
    public mutating func show(trackIds: [Int]) -> [Effect] {
        guard policy.heads.capacity > 0 else { return [] }
        return (try? command { core, _ in
            var queued: [Int: String] = [:]
            if trackIds.contains(where: { core.shownByTrackId[$0] == nil }) {
                for entry in core.queue.items { if let id = entry.track.trackId, queued[id] == nil { queued[id] = entry.track.fetchablePreviewURL } }
            }
            var urls: [String] = []
            for id in trackIds.prefix(Self.maxShown) {
                if let url = core.shownByTrackId[id] ?? queued[id], !urls.contains(url) { urls.append(url) }
            }
            core.visible = urls
        }) ?? []
    }

    /// After every change: the heads wanted are held (new ones started within `maxTransfers`,
    /// once the current track's download has ended, as neighbours wait), the others let go.
    mutating func updateHeads(into effects: inout [Effect]) {
        let plan = policy.heads
        guard plan.capacity > 0 || !heads.isEmpty else { return }
        // A stopped track is where `play` starts: it wants a head of its own.
        let here = transport.isActive ? [] : position.map { [$0] } ?? []
        let reach = here + plan.positions(around: position, count: queue.count, beyond: policy.ahead + policy.behind)
        let around = reach.compactMap { i -> String? in
            guard let entry = queue[safe: i], entry.isPlayable else { return nil }
            return entry.track.fetchablePreviewURL
        }
        let wanted = plan.wanted(shown: visible ?? shown, aroundCurrent: around,
                                 excluded: Set(downloads.keys).union(failedHeads))
        let keep = Set(wanted)
        for (url, _) in heads.sorted(by: { $0.value.id < $1.value.id }) where !keep.contains(url) { dropHead(url, into: &effects) }
        guard current.map({ downloads[$0.url] != .arriving }) ?? true else { return }
        var transfers = heads.values.filter(\.fetching).count
        for url in wanted where heads[url] == nil && transfers < plan.maxTransfers {
            lastSlot += 1
            heads[url] = Head(id: lastSlot, phase: .decoding)
            effects.append(.startHead(lastSlot, url: url, bytes: plan.headBytes, headMs: policy.headMs))
            transfers += 1
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
        failedHeads.removeAll { $0 == url }   // played: it may be tried again
        guard let head = heads.removeValue(forKey: url) else { return nil }
        downloads[url] = head.complete ? .complete : .arriving
        effects.append(.widenDownload(url: url, trackId: queue[id: item]?.track.trackId))
        return head
    }

    /// Lets the head of `url` go: its decoder, its ring, its transfer and bytes.
    mutating func dropHead(_ url: String, into effects: inout [Effect]) {
        guard let head = heads.removeValue(forKey: url) else { return }
        effects.append(.cancelSlot(head.id))
        effects.append(.cancelDownload(url: url))
    }

    /// The head of `url` failed (its fetch or its decoder): let go, and not asked for again until played.
    mutating func headFailed(_ url: String, into effects: inout [Effect]) {
        dropHead(url, into: &effects)
        failedHeads.removeAll { $0 == url }
        failedHeads.append(url)
        if failedHeads.count > Self.maxFailedHeads { failedHeads.removeFirst(failedHeads.count - Self.maxFailedHeads) }
    }

    /// A decoder's progress, when slot `id` is a head's; false when it is not.
    mutating func recordHead(_ id: SlotID, _ phase: Slot.Phase, durationMs: Int? = nil) -> Bool {
        guard let url = headURL(id) else { return false }
        if heads[url]!.phase == .decoding || phase == .finished { heads[url]!.phase = phase }
        if let durationMs { heads[url]!.durationMs = durationMs }
        return true
    }
}
