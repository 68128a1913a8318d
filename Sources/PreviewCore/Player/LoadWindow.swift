/// The loads around the current one and their downloads: the neighbours decoded ahead of need,
/// the one handed to the output to follow the current track, the old track fading out under it,
/// the downloads every load reads from, and the counter that names each load. What leaves the
/// window is let go by an effect at once (`cancelSlot`, `cancelDownload`), so the engine's tables
/// never hold more than this does. The current load is the playhead's (`Playhead`): methods that
/// must know it are given it.
public struct LoadWindow: Equatable, Sendable {
    /// Neighbours decoded ahead of need, by queue item id.
    public internal(set) var prefetched: [Int: PlayerCore.Slot] = [:]
    /// The prefetched slot handed to the output to follow the current one.
    public internal(set) var follower: PlayerCore.SlotID?
    /// The track before the current one while the output fades it out under it (a crossfade).
    public internal(set) var fading: PlayerCore.Slot?
    /// Downloads held, by URL.
    public internal(set) var downloads: [String: PlayerCore.Download] = [:]
    /// The last slot id given (loads and heads share the counter: a load that adopts a head keeps its id).
    public internal(set) var lastSlot: PlayerCore.SlotID = 0

    /// An empty window.
    public init() {}

    // MARK: Slots

    /// A new slot id, unique for the life of the core.
    mutating func newID() -> PlayerCore.SlotID {
        lastSlot += 1
        return lastSlot
    }

    /// A new load of queue item `item` decoding `url` from `startMs` (not held yet).
    mutating func newSlot(_ item: Int, url: String, startMs: Int) -> PlayerCore.Slot {
        PlayerCore.Slot(id: newID(), item: item, url: url, startMs: startMs, phase: .decoding)
    }

    /// The neighbour with slot `id`, if one is held.
    func neighbour(_ id: PlayerCore.SlotID) -> PlayerCore.Slot? {
        prefetched.values.first { $0.id == id }
    }

    /// Holds `slot` as the neighbour of its item.
    mutating func hold(_ slot: PlayerCore.Slot) { prefetched[slot.item] = slot }

    /// Changes the neighbour with slot `id`; false when none is held.
    @discardableResult
    mutating func update(_ id: PlayerCore.SlotID, _ change: (inout PlayerCore.Slot) -> Void) -> Bool {
        guard let item = prefetched.first(where: { $0.value.id == id })?.key else { return false }
        change(&prefetched[item]!)
        return true
    }

    /// The neighbour of `item` becomes the current load, when it can: it is fresh, or it is what
    /// the output plays already (it followed), and neither it nor its download failed. It leaves
    /// the window (and stops being the follower) without being let go.
    mutating func takeNeighbour(_ item: Int, url: String, outputPlaying: PlayerCore.SlotID?) -> PlayerCore.Slot? {
        guard let slot = prefetched[item], slot.phase != .failed, downloads[url] != .failed,
              !slot.heard || outputPlaying == slot.id else { return nil }
        prefetched[item] = nil
        if follower == slot.id { follower = nil }
        return slot
    }

    /// Lets every neighbour go, oldest first, and the follower with them.
    mutating func dropNeighbours(into effects: inout [PlayerCore.Effect]) {
        for slot in prefetched.values.sorted(by: { $0.id < $1.id }) { effects.append(.cancelSlot(slot.id)) }
        prefetched = [:]
        if follower != nil {
            follower = nil
            effects.append(.follow(nil))
        }
    }

    /// Lets go the neighbours no longer `wanted` (by item id), or whose item's preview changed.
    mutating func dropNeighbours(notIn wanted: [Int: Bool], queue: PlayQueue, into effects: inout [PlayerCore.Effect]) {
        for (i, slot) in prefetched where wanted[i] == nil || queue[id: i]?.track.fetchablePreviewURL != slot.url {
            effects.append(.cancelSlot(slot.id))
            prefetched[i] = nil
            if follower == slot.id { follower = nil; effects.append(.follow(nil)) }
        }
    }

    /// The neighbour with slot `id` failed after `afterMs` of good audio: with some, it plays what
    /// it has and ends; with none, it is let go. Returns the item to mark failed (nil: none).
    mutating func neighbourFailed(_ id: PlayerCore.SlotID, afterMs: Int, into effects: inout [PlayerCore.Effect]) -> Int? {
        guard let (item, slot) = prefetched.first(where: { $0.value.id == id }) else { return nil }
        guard afterMs == 0 else { prefetched[item]?.phase = .finished; return nil }
        prefetched[item] = nil
        effects.append(.cancelSlot(id))
        if follower == slot.id { follower = nil; effects.append(.follow(nil)) }
        return item
    }

    // MARK: The output's view

    /// Slot `id` follows the current one (nil: none); the caller tells the output.
    mutating func follow(_ id: PlayerCore.SlotID?) { follower = id }

    /// The output moved on to slot `id` by itself: a neighbour it reads has been heard, and it
    /// is no longer the follower.
    mutating func started(_ id: PlayerCore.SlotID) {
        update(id) { $0.heard = true }
        if follower == id { follower = nil }
    }

    /// `slot` fades out under its follower; the slot that was fading before is the caller's to release first.
    mutating func startFading(_ slot: PlayerCore.Slot) { fading = slot }

    /// Lets the slot that was fading out go (unless it is `current` or a neighbour still: its fade
    /// never took over).
    mutating func releaseFading(current: PlayerCore.Slot?, into effects: inout [PlayerCore.Effect]) {
        guard let slot = fading else { return }
        fading = nil
        if current?.id != slot.id, neighbour(slot.id) == nil { effects.append(.cancelSlot(slot.id)) }
    }

    // MARK: Downloads

    /// Makes sure `url` is downloading or downloaded; a failed download is tried again.
    mutating func want(_ url: String, trackId: Int?, into effects: inout [PlayerCore.Effect]) {
        switch downloads[url] {
        case .arriving?, .complete?: return
        case .failed?: effects.append(.cancelDownload(url: url))
        case nil: break
        }
        downloads[url] = .arriving
        effects.append(.startDownload(url: url, trackId: trackId))
    }

    /// Lets go `url`'s download unless it is whole, so the next `want` asks for it anew (a try
    /// after a transient failure, whichever of the failure's reports came first).
    mutating func dropDownload(_ url: String, into effects: inout [PlayerCore.Effect]) {
        guard let download = downloads[url], download != .complete else { return }
        downloads[url] = nil
        effects.append(.cancelDownload(url: url))
    }

    /// A head's download of `url` goes on as a load's: whole already, or still arriving.
    mutating func adoptDownload(_ url: String, complete: Bool) {
        downloads[url] = complete ? .complete : .arriving
    }

    /// The download of `url` ended; false when none is held.
    mutating func downloadEnded(_ url: String, complete: Bool) -> Bool {
        guard downloads[url] != nil else { return false }
        downloads[url] = complete ? .complete : .failed
        return true
    }

    /// The download of `url` is still arriving (neighbours and heads wait for the current one's).
    func isArriving(_ url: String) -> Bool { downloads[url] == .arriving }

    /// Lets go every download but those of `keep`, in URL order.
    mutating func keepDownloads(_ keep: Set<String>, into effects: inout [PlayerCore.Effect]) {
        for url in downloads.keys.sorted() where !keep.contains(url) {
            effects.append(.cancelDownload(url: url))
            downloads[url] = nil
        }
    }
}
