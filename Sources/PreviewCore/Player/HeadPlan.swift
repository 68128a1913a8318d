/// Which previews get a head: the first seconds of a preview, fetched by range request and decoded
/// until the first frame is ready, so a tap on a result the listener sees starts as fast as `next`.
/// Pure arithmetic over lists, tested by tables: how many heads the memory budget holds once the
/// prefetch window has its share, and which previews want one, best first.
public struct HeadPlan: Equatable, Sendable {
    /// Results of the latest answer, and queue items around the current one, given a head each
    /// (`--prefetch-heads`; 0: none).
    public var perList: Int
    /// The most heads held at once, within the memory budget.
    public var capacity: Int
    /// Bytes of a preview fetched for its head.
    public var headBytes: Int

    /// What a load of the prefetch window is allowed before any head: a 30-second preview is about
    /// 1 MB, so twice that leaves room for the largest.
    public static let windowShareBytes = 2 << 20

    /// No heads.
    public init() {
        perList = 0
        capacity = 0
        headBytes = 64 << 10
    }

    /// `perList` heads for each list, as many of the two lists' as fit in `budgetBytes` after the
    /// `windowLoads` loads of the prefetch window took `windowShareBytes` each: the neighbours first.
    public init(perList: Int, budgetBytes: Int, windowLoads: Int, headBytes: Int = 64 << 10) {
        self.perList = max(0, perList)
        self.headBytes = max(1, headBytes)
        let room = max(0, budgetBytes - windowLoads * Self.windowShareBytes)
        capacity = min(2 * self.perList, room / self.headBytes)
    }

    /// Bytes the heads may take of the budget at most.
    public var reservedBytes: Int { capacity * headBytes }

    /// Heads fetched at once at most (with the window's own, `perList` + 2 transfers).
    public var maxTransfers: Int { perList }

    /// Queue positions around `current` in the order their heads matter: the ones after it and
    /// before it in turn, nearest first (`+1, -1, +2, -2, …`), `perList` of them and `beyond` more
    /// (the window's neighbours, which need none); with no current track, the first ones.
    public func positions(around current: Int?, count: Int, beyond: Int = 0) -> [Int] {
        let wanted = perList + max(0, beyond)
        guard perList > 0, count > 0 else { return [] }
        guard let current else { return Array(0..<min(wanted, count)) }
        var picked: [Int] = []
        var step = 1
        while picked.count < wanted, current + step < count || current - step >= 0 {
            if current + step < count { picked.append(current + step) }
            if picked.count < wanted, current - step >= 0 { picked.append(current - step) }
            step += 1
        }
        return picked
    }

    /// The previews that should hold a head, best first: those among the first `perList` of
    /// `shown` (what the listener sees: the latest answer's results, or the rows a front-end said
    /// are visible), then the first `perList` of the queue's (`aroundCurrent`, nearest first) that
    /// need one; never one of `excluded` (previews the window holds whole, heads that failed),
    /// each once, at most `capacity`.
    public func wanted(shown: [String], aroundCurrent: [String], excluded: Set<String>) -> [String] {
        var picked: [String] = []
        var seen = excluded
        for url in shown.prefix(perList) where picked.count < capacity && seen.insert(url).inserted {
            picked.append(url)
        }
        var queued = 0
        for url in aroundCurrent where queued < perList && picked.count < capacity && seen.insert(url).inserted {
            picked.append(url)
            queued += 1
        }
        return picked
    }
}
