/// The heads held and what decides them: the previews of the latest catalog answer, the rows a
/// front-end says are on screen, and the heads that failed. `HeadPlan` picks which previews want
/// a head; this keeps them, each a range request and a decoder parked after its first
/// milliseconds, until a load adopts one or it is let go. Slot ids come from the caller (the load
/// window's counter: a load that adopts a head keeps its id).
public struct HeadsState: Equatable, Sendable {
    /// The most results of one answer remembered for heads and for `visible`'s track ids.
    static let maxShown = 200
    /// The most failed heads remembered (not asked for again until played).
    static let maxFailed = 256

    /// Heads held, by preview URL (never a URL the load window downloads whole: a load adopts its head).
    public internal(set) var heads: [String: PlayerCore.Head] = [:]
    /// The previews of the latest catalog answer, in its order.
    public internal(set) var shown: [String] = []
    /// The latest answer's previews by trackId (what `visible` names rows by).
    public internal(set) var shownByTrackId: [Int: String] = [:]
    /// The previews a front-end said are on screen (nil: the latest answer's first ones).
    public internal(set) var visible: [String]?
    /// Previews whose head failed, not asked for again until played (the most recent `maxFailed`).
    public internal(set) var failed: [String] = []

    /// No heads, nothing shown.
    public init() {}

    /// A catalog answer's playable tracks were handed to a front-end: their first `maxShown`
    /// previews are what the listener sees now, in place of the last answer's and of any visible rows.
    mutating func answered(_ playable: [Track]) {
        var urls: [String] = [], byTrackId: [Int: String] = [:]
        for track in playable.prefix(Self.maxShown) {
            guard let url = track.fetchablePreviewURL else { continue }
            urls.append(url)
            if let id = track.trackId { byTrackId[id] = url }
        }
        shown = urls
        shownByTrackId = byTrackId
        visible = nil
    }

    /// The tracks on screen are `trackIds` (the latest answer's, or the queue's when the answer
    /// does not have one), in screen order; ids neither knows are left out.
    mutating func show(trackIds: [Int], queue: PlayQueue) {
        var queued: [Int: String] = [:]
        if trackIds.contains(where: { shownByTrackId[$0] == nil }) {
            for entry in queue.items { if let id = entry.track.trackId, queued[id] == nil { queued[id] = entry.track.fetchablePreviewURL } }
        }
        var urls: [String] = []
        for id in trackIds.prefix(Self.maxShown) {
            if let url = shownByTrackId[id] ?? queued[id], !urls.contains(url) { urls.append(url) }
        }
        visible = urls
    }

    /// The previews that should hold a head under `plan`, best first: what is on screen, then
    /// `around` (the queue around the current track), never one `held` whole nor one that failed.
    func wanted(_ plan: HeadPlan, around: [String], held: some Sequence<String>) -> [String] {
        plan.wanted(shown: visible ?? shown, aroundCurrent: around, excluded: Set(held).union(failed))
    }

    /// Lets go every head not in `wanted`, oldest first.
    mutating func keep(only wanted: Set<String>, into effects: inout [PlayerCore.Effect]) {
        for (url, _) in heads.sorted(by: { $0.value.id < $1.value.id }) where !wanted.contains(url) { drop(url, into: &effects) }
    }

    /// The previews of `wanted` whose heads may start now: those not held, as many as the
    /// transfers under way leave room for in `maxTransfers`.
    func startable(_ wanted: [String], maxTransfers: Int) -> [String] {
        let room = maxTransfers - heads.values.filter(\.fetching).count
        return Array(wanted.filter { heads[$0] == nil }.prefix(max(0, room)))
    }

    /// A head of `url` starts as slot `id`.
    mutating func start(_ url: String, id: PlayerCore.SlotID) {
        heads[url] = PlayerCore.Head(id: id, phase: .decoding)
    }

    /// The head of `url` is taken by a load that wants its preview whole (nil: none held); the
    /// preview may be tried again even if its head had failed.
    mutating func take(_ url: String) -> PlayerCore.Head? {
        failed.removeAll { $0 == url }   // played: it may be tried again
        return heads.removeValue(forKey: url)
    }

    /// Lets the head of `url` go: its decoder, its ring, its transfer and bytes.
    mutating func drop(_ url: String, into effects: inout [PlayerCore.Effect]) {
        guard let head = heads.removeValue(forKey: url) else { return }
        effects.append(.cancelSlot(head.id))
        effects.append(.cancelDownload(url: url))
    }

    /// The head of `url` failed (its fetch or its decoder): let go, and not asked for again until played.
    mutating func fail(_ url: String, into effects: inout [PlayerCore.Effect]) {
        drop(url, into: &effects)
        failed.removeAll { $0 == url }
        failed.append(url)
        if failed.count > Self.maxFailed { failed.removeFirst(failed.count - Self.maxFailed) }
    }

    /// The preview whose head is slot `id`, if a head is.
    func url(of id: PlayerCore.SlotID) -> String? {
        heads.first { $0.value.id == id }?.key
    }

    /// A decoder's progress, when slot `id` is a head's; false when it is not.
    mutating func record(_ id: PlayerCore.SlotID, _ phase: PlayerCore.Slot.Phase, durationMs: Int? = nil) -> Bool {
        guard let url = url(of: id) else { return false }
        if heads[url]!.phase == .decoding || phase == .finished { heads[url]!.phase = phase }
        if let durationMs { heads[url]!.durationMs = durationMs }
        return true
    }

    /// The range request of `url`'s head ended (the rest waits until the head is played).
    mutating func fetched(_ url: String) {
        heads[url]?.fetching = false
    }

    /// The download of `url`'s head ended with the whole preview (a small one, a server that
    /// ignores Range, the disk cache).
    mutating func arrivedWhole(_ url: String) {
        heads[url]?.complete = true
        heads[url]?.fetching = false
    }
}
