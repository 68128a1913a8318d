import PreviewCore

/// The prefetch window: the tracks `next` and `prev` would play are downloaded and their first
/// seconds decoded while the current one plays, and the one that follows is handed to the output to
/// start without a gap. Neighbours start downloading only once the current track's download is
/// complete, so they never take bandwidth from the track being heard.
extension Player {
    /// Brings the slots and downloads in line with the transport's current, upcoming and previous tracks.
    func updatePrefetch() {
        guard let index = transport.index, transport.currentRequest != nil else {
            prefetched.values.forEach { $0.cancel() }
            prefetched = [:]
            if enqueued != nil { sink.enqueue(nil); enqueued = nil }
            return
        }
        var wanted: [Int: String] = [:]   // queue index → role
        var cursor: Int? = index
        for _ in 0..<policy.prefetchAhead {
            guard let from = cursor, let up = from == index ? transport.upcoming(in: queue)
                    : transport.order.after(from, in: queue, wrap: transport.repeatMode == .all) else { break }
            if wanted[up] == nil { wanted[up] = "next" }
            cursor = up
        }
        cursor = index
        for _ in 0..<policy.prefetchBehind {
            guard let from = cursor, let back = transport.order.before(from, in: queue) else { break }
            if wanted[back] == nil { wanted[back] = "previous" }
            cursor = back
        }

        for (i, slot) in prefetched where wanted[i] == nil || queue[safe: i]?.track.fetchablePreviewURL != slot.download.url {
            slot.cancel()
            prefetched[i] = nil
        }
        for (i, download) in downloads where i != index && wanted[i] == nil {
            download.cancel()
            downloads[i] = nil
        }
        let currentDone = current.map { $0.download.bytes.isComplete || $0.download.hasFailed } ?? true
        for i in wanted.keys.sorted() where prefetched[i] == nil && currentDone {
            guard let item = queue[safe: i], item.isPlayable, let url = item.track.fetchablePreviewURL else { continue }
            prefetched[i] = makeSlot(i, startMs: 0, download: downloadFor(i, url: url), headMs: policy.prefetchHeadMs)
        }
        updateEnqueued()
    }

    /// Hands the output the slot that plays when the current one ends, so it starts with no gap.
    func updateEnqueued() {
        let follower: PreviewSlot?
        switch transport.playbackState {
        case .playing, .paused:
            follower = transport.upcoming(in: queue).flatMap { prefetched[$0] }
        default:
            follower = nil
        }
        guard follower !== enqueued else { return }
        // The follower stays parked after its head: when the output moves to it, `.drained` makes it
        // current (`load`), which starts its whole decoding while the head plays.
        enqueued = follower
        sink.enqueue(follower?.pcm)
    }

    /// What `status` shows of the slots.
    func slotReports() -> [SlotReport] {
        var reports: [SlotReport] = []
        func report(_ slot: PreviewSlot, _ role: String) -> SlotReport {
            SlotReport(index: slot.index, trackId: queue[safe: slot.index]?.track.trackId, role: role,
                       bytes: slot.download.bytes.receivedCount, complete: slot.download.bytes.isComplete,
                       state: slot.stateName)
        }
        if let current { reports.append(report(current, "current")) }
        let upcoming = transport.upcoming(in: queue)
        for (i, slot) in prefetched.sorted(by: { $0.key < $1.key }) {
            reports.append(report(slot, i == upcoming ? "next" : "previous"))
        }
        return reports
    }
}
