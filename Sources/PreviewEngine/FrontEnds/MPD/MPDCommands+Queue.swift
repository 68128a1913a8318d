import PreviewCore

extension MPDCommands {
    /// `add URI [POS]`.
    static func add(_ call: MPDCall) async throws(MPDError) {
        _ = try await insert(call, uri: call.argument(0) ?? "", position: call.argument(1))
    }

    /// `addid URI [POS]`: answers the new item's `Id`.
    static func addid(_ call: MPDCall) async throws(MPDError) {
        let ids = try await insert(call, uri: call.argument(0) ?? "", position: call.argument(1))
        if let id = ids.first { call.response.add("Id", id) }
    }

    /// Where an insert goes: nil (the end), an index, or `+N`/`-N` from the current song (mpc insert).
    static func place(_ text: String?, _ call: MPDCall) throws(MPDError) -> InsertPosition {
        guard let text else { return .end }
        guard let n = Int(text.dropFirst(text.hasPrefix("+") || text.hasPrefix("-") ? 1 : 0)), n >= 0 else {
            throw MPDError(.arg, "Integer expected: \(text.prefix(32))")
        }
        if text.hasPrefix("+") || text.hasPrefix("-") {
            guard let current = call.status().index else { throw MPDError(.playerSync, "No current song") }
            return .index(text.hasPrefix("+") ? current + 1 + n : max(0, current - n))
        }
        return .index(n)
    }

    /// Inserts what `uri` names at `position`; the new items' ids. A folder of the database
    /// (the root too, as MPD adds its whole database) adds every song under it.
    static func insert(_ call: MPDCall, uri: String, position: String?) async throws(MPDError) -> [Int] {
        let at = try place(position, call)
        let target: MPDSong.Target
        do throws(MPDError) {
            target = try MPDSong.target(uri)
        } catch {
            let database = await call.server.library.database()
            guard database.directory(uri) != nil else { throw error }
            let songs = database.songs(under: uri)
            guard !songs.isEmpty else { return [] }
            return try await add(.tracks(Array(songs.prefix(PlayQueue.maxCount))), at: at, call)
        }
        let source: AddSource
        switch target {
        case .track(let id): source = .trackIds([id])
        case .album(let id), .artist(let id):
            let found = try await lookup([id], call)
            guard !found.isEmpty else { throw MPDError(.noExist, "No such song: nothing to play under \(uri.prefix(64))") }
            source = .tracks(Array(found.prefix(PlayQueue.maxCount)))
        case .url(let url): source = .tracks([urlTrack(url)])
        }
        return try await add(source, at: at, call)
    }

    /// The track of a preview URL given to `add`.
    static func urlTrack(_ url: String) -> Track {
        var track = Track(trackName: url.split(separator: "/").last.map(String.init), previewUrl: url)
        track.kind = "song"
        track.wrapperType = "track"
        return track
    }

    /// Adds `source` at `at`; an error when nothing could be queued, saying why.
    static func add(_ source: AddSource, at: InsertPosition, _ call: MPDCall) async throws(MPDError) -> [Int] {
        guard case .added(let report) = try await call.perform(.add(source, Enqueue(append: true, play: false, at: at))) else {
            throw MPDError(.system, "add answered no ids")
        }
        if report.ids.isEmpty {
            throw MPDError(.noExist, "No such song: " + (report.notQueued.first?.reason ?? "nothing could be queued"))
        }
        return report.ids
    }

    /// True when the catalog has track `id` with a preview previewd plays (the track memory first,
    /// else one lookup); nothing is queued.
    static func isPlayable(_ id: Int, _ call: MPDCall) async throws(MPDError) -> Bool {
        var enqueue = Enqueue(append: true, play: false, at: .end)
        enqueue.queue = false
        guard case .added(let report) = try await call.perform(.add(.trackIds([id]), enqueue)) else { return false }
        return report.notQueued.isEmpty
    }

    /// The playable songs of catalog ids (an album's, an artist's, tracks), without queuing them.
    static func lookup(_ ids: [Int], _ call: MPDCall) async throws(MPDError) -> [Track] {
        let result: ControlResult
        do throws(MPDError) {
            result = try await call.perform(.lookup(LookupQuery(ids: ids, entity: "song", limit: 200), Enqueue(play: false, queue: false)))
        } catch where error.code == .noExist {
            return []
        }
        guard case .catalog(let report) = result else { return [] }
        return playable(report)
    }

    /// The results a catalog answer could queue (songs with a preview previewd may fetch).
    static func playable(_ report: CatalogReport) -> [Track] {
        let refused = Set(report.notQueued.map(\.result))
        return report.results.enumerated().filter { !refused.contains($0.offset) }.map(\.element)
    }

    static func clear(_ call: MPDCall) async throws(MPDError) { _ = try await call.perform(.clear) }

    /// `delete POS|START:END`: from the end of the range, so the positions stay true.
    static func delete(_ call: MPDCall) async throws(MPDError) {
        let count = call.status().queueLength
        let range = try MPDRange(call.argument(0) ?? "").range(count: count)
        for index in range.reversed() { _ = try await call.perform(.remove(.index(index))) }
    }

    /// `shuffle [START:END]`: the queue's songs reordered (not a play order: that is `random`).
    static func shuffle(_ call: MPDCall) async throws(MPDError) {
        let range = try call.argument(0).map { (text: String) throws(MPDError) in try MPDRange(text).range(count: call.status().queueLength) }
        _ = try await call.perform(.shuffleQueue(range))
    }

    static func deleteid(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.remove(.id(try queuedId(call, 0))))
    }

    /// `move FROM|START:END TO`: a range moves one song at a time, so that it starts at TO (mpc
    /// `insert` adds at the end, then moves the new songs up). TO may be `+N`/`-N` from the
    /// current song (myMPD's "play after current" sends `moveid ID +0`).
    static func move(_ call: MPDCall) async throws(MPDError) {
        let status = call.status()
        let asked = try MPDRange(call.argument(0) ?? "")
        guard asked.end != nil else { throw MPDError(.arg, "Open-ended range not supported") }
        let range = try asked.range(count: status.queueLength)
        guard !range.isEmpty else { return }
        try await move(range, to: try destination(call.argument(1) ?? "", moving: range, status), call)
    }

    /// `moveid ID TO`.
    static func moveid(_ call: MPDCall) async throws(MPDError) {
        let id = try call.int(0, in: 0...Int(UInt32.max))
        let status = call.status()
        guard let from = try await call.queue().items.firstIndex(where: { $0.id == id }) else { throw MPDError(.noExist, "No such song") }
        try await move(from..<(from + 1), to: try destination(call.argument(1) ?? "", moving: from..<(from + 1), status), call)
    }

    private static func move(_ range: Range<Int>, to: Int, _ call: MPDCall) async throws(MPDError) {
        guard to != range.lowerBound else { return }
        for k in 0..<range.count {
            let (from, place) = to < range.lowerBound ? (range.lowerBound + k, to + k) : (range.lowerBound, to + range.count - 1)
            _ = try await call.perform(.move(from: .index(from), to: .index(place)))
        }
    }

    /// Where `move` puts `range`: an absolute position, or `+N`/`-N` from the current song as the
    /// queue will be once the range is out of it (MPD's ParseMoveDestination, src/command/PositionArg.cxx).
    static func destination(_ text: String, moving range: Range<Int>, _ status: StatusReport) throws(MPDError) -> Int {
        let length = status.queueLength
        let sign = text.first.flatMap { $0 == "+" || $0 == "-" ? $0 : nil }
        guard let n = UInt32(sign == nil ? Substring(text) : text.dropFirst()).map(Int.init) else { throw MPDError(.arg, "Integer expected: \(text.prefix(32))") }
        guard let sign else {
            guard n <= length - range.count else { throw MPDError(.arg, "Number too large: \(text.prefix(32))") }
            return n
        }
        guard var current = status.index else { throw MPDError(.playerSync, "No current song") }
        guard !range.contains(current) else { throw MPDError(.arg, "Cannot move current song relative to itself") }
        if current >= range.upperBound { current -= range.count }
        guard n <= length - current - range.count else { throw MPDError(.arg, "Number too large: \(text.prefix(32))") }
        if sign == "+" { return current + 1 + n }
        guard n <= current else { throw MPDError(.arg, "Number too large: \(text.prefix(32))") }
        return current - n
    }

    /// `swap POS1 POS2`.
    static func swap(_ call: MPDCall) async throws(MPDError) {
        let count = call.status().queueLength
        let a = try call.int(0, in: 0...Int(UInt32.max)), b = try call.int(1, in: 0...Int(UInt32.max))
        guard a < count, b < count else { throw MPDError(.arg, "Bad song index") }
        _ = try await call.perform(.swap(.index(a), .index(b)))
    }

    /// `swapid ID1 ID2`.
    static func swapid(_ call: MPDCall) async throws(MPDError) {
        let a = try call.int(0, in: 0...Int(UInt32.max)), b = try call.int(1, in: 0...Int(UInt32.max))
        let ids = Set(try await call.queue().items.map(\.id))
        guard ids.contains(a), ids.contains(b) else { throw MPDError(.noExist, "No such song") }
        _ = try await call.perform(.swap(.id(a), .id(b)))
    }

    /// `prio PRIORITY START:END…`: the songs in each range get PRIORITY (0–255).
    static func prio(_ call: MPDCall) async throws(MPDError) {
        let priority = try priorityArgument(call)
        let items = try await call.queue().items
        // A set: 4,096 ranges of the whole queue name each item once, not 4,096 times.
        var positions = Set<Int>()
        for text in call.arguments.dropFirst() { positions.formUnion(try MPDRange(text).range(count: items.count)) }
        guard !positions.isEmpty else { return }
        _ = try await call.perform(.setPriority(priority, positions.sorted().map { .id(items[$0].id) }))
    }

    /// `prioid PRIORITY ID…`.
    static func prioid(_ call: MPDCall) async throws(MPDError) {
        let priority = try priorityArgument(call)
        let ids = Set(try await call.queue().items.map(\.id))
        var refs: [QueueRef] = []
        for i in 1..<call.arguments.count {
            let id = try call.int(i, in: 0...Int(UInt32.max))
            guard ids.contains(id) else { throw MPDError(.noExist, "No such song") }
            refs.append(.id(id))
        }
        _ = try await call.perform(.setPriority(priority, refs))
    }

    private static func priorityArgument(_ call: MPDCall) throws(MPDError) -> Int {
        guard let n = call.argument(0).flatMap(UInt32.init) else { throw MPDError(.arg, "Integer expected: \((call.argument(0) ?? "").prefix(32))") }
        guard n <= 255 else { throw MPDError(.arg, "Number too large: \(n)") }
        return Int(n)
    }

    /// `playlistinfo [POS|START:END]`: a position at the queue's length answers nothing, as MPD.
    static func playlistinfo(_ call: MPDCall) async throws(MPDError) {
        let queue = try await call.queue()
        let range = try call.argument(0).map { (text: String) throws(MPDError) in try MPDRange(text).range(count: queue.items.count, clip: true) }
            ?? 0..<queue.items.count
        for i in range { songOf(queue, i, call) }
    }

    /// `playlistid [ID]`.
    static func playlistid(_ call: MPDCall) async throws(MPDError) {
        let queue = try await call.queue()
        guard call.argument(0) != nil else { return queue.items.indices.forEach { songOf(queue, $0, call) } }
        let id = try call.int(0)
        guard let i = queue.items.firstIndex(where: { $0.id == id }) else { throw MPDError(.noExist, "No such song") }
        songOf(queue, i, call)
    }

    /// `playlist` (deprecated): `POS:file` lines.
    static func playlist(_ call: MPDCall) async throws(MPDError) {
        let queue = try await call.queue()
        for (i, item) in queue.items.enumerated() { call.response.add(String(i), MPDSong.uri(of: item.track)) }
    }

    /// `playlistfind FILTER` (exact) and `playlistsearch FILTER` (contains, any case) over the queue.
    static func playlistfind(_ call: MPDCall) async throws(MPDError) { try await queueFilter(call, exact: true) }
    static func playlistsearch(_ call: MPDCall) async throws(MPDError) { try await queueFilter(call, exact: false) }

    private static func queueFilter(_ call: MPDCall, exact: Bool) async throws(MPDError) {
        let search = try MPDSearch(call.arguments, exact: exact)
        let queue = try await call.queue()
        for (i, item) in queue.items.enumerated() where search.filter?.matches(item.track, priority: item.priority, foldCase: !exact) ?? true {
            songOf(queue, i, call)
        }
    }

    /// `plchanges VERSION [START:END]`: the songs added or moved since VERSION.
    static func plchanges(_ call: MPDCall) async throws(MPDError) {
        for change in try await changes(call) {
            call.addSong(change.item.track, position: change.index, id: change.item.id, previewMs: change.item.previewMs)
            if change.item.priority > 0 { call.response.add("Prio", change.item.priority) }
        }
    }

    /// `plchangesposid VERSION [START:END]`: their positions and ids only.
    static func plchangesposid(_ call: MPDCall) async throws(MPDError) {
        for change in try await changes(call) {
            call.response.add("cpos", change.index)
            call.response.add("Id", change.item.id)
        }
    }

    private static func changes(_ call: MPDCall) async throws(MPDError) -> [QueueChangesReport.Change] {
        let version = try call.int(0)
        guard case .queueChanges(let report) = try await call.perform(.queue(since: max(0, version))) else { return [] }
        guard let text = call.argument(1) else { return report.items }
        let range = try MPDRange(text).range(count: Int.max)
        return report.items.filter { range.contains($0.index) }
    }

    private static func songOf(_ queue: QueueReport, _ i: Int, _ call: MPDCall) {
        let item = queue.items[i]
        call.addSong(item.track, position: i, id: item.id, previewMs: item.previewMs)
        if item.priority > 0 { call.response.add("Prio", item.priority) }
    }
}
