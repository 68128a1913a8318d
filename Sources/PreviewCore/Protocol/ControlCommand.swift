#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The commands of the control protocol, parsed and checked. `docs/PROTOCOL.md` shows each on the wire.
public enum ControlCommand: Equatable, Sendable {
    /// Protocol and daemon versions.
    case hello
    /// Search the catalog and queue the playable results (replace or append, play or not, sorted).
    case search(CatalogQuery, Enqueue)
    /// Look up iTunes ids: an album's songs, an artist's songs, a track.
    case lookup(LookupQuery, Enqueue)
    /// The top-songs chart.
    case top(ChartQuery, Enqueue)
    /// The next page of the last search, appended to the queue (`queue` false: the next page of
    /// the last search that queued nothing, only answered).
    case more(queue: Bool)
    /// Tracks into the queue where `Enqueue.at` says: catalog ids (one batched lookup) or track
    /// objects as a search answered them (no network); answers the new items' ids.
    case add(AddSource, Enqueue)
    /// Everything known about a queue item (the current one when nil), with its artist's details.
    case info(QueueRef?)
    /// The artwork of a queue item (the current one when nil) as an RGB picture fitting width × height.
    case artwork(QueueRef?, width: Int, height: Int)
    /// The artwork file of a queue item (the current one when nil) as fetched, a chunk from `offset`.
    case artworkFile(QueueRef?, offset: Int)
    /// A ready-to-post line about what is playing.
    case share
    /// Empty the queue (playback stops).
    case clear
    /// Remove one queue item; removing the current one plays the next.
    case remove(QueueRef)
    /// Move a queue item to where another one is (by index or id); the current track keeps playing.
    case move(from: QueueRef, to: QueueRef)
    /// Turn the connection into an event stream (handled by the socket server); `position` adds a
    /// position event every second.
    case subscribe(position: Bool)
    /// Play the item, or resume / start when nil. An item may start at `startMs`, and be loaded
    /// `paused` there (cued: a restore gives the session back this way, nothing heard).
    case play(QueueRef?, startMs: Int = 0, paused: Bool = false)
    case pause
    case resume
    case toggle
    case stop
    case next
    case prev
    /// Move within the current track.
    case seek(SeekTarget)
    /// Set or change the volume (0–100); nil only reports it.
    case volume(VolumeChange?)
    /// Mute or unmute; nil toggles.
    case mute(Bool?)
    /// End-of-track and end-of-queue behaviour.
    case setRepeat(RepeatMode)
    /// Shuffle the play order or not.
    case setShuffle(Bool)
    /// Shuffle in exactly this order of queue item ids (every item once): a restore gives back the
    /// order it saved.
    case shuffleOrder([Int])
    /// Stop (or repeat) at the end of the current track, always or once.
    case setSingle(SingleMode)
    /// Remove each item from the queue once it has played.
    case setConsume(Bool)
    /// State, position and the current track.
    case status
    /// The queue with its current and failed items; with `since`, only the items added, moved or
    /// changed after that version.
    case queue(since: Int?)
    /// What previewd holds in memory: live loads and every store against its bound.
    case memory
    /// Save the queue as list `name` (after what it holds, with `append`).
    case save(ListName, append: Bool)
    /// Put list `name`'s tracks in the queue (replacing it, or where `Enqueue.at` says).
    case load(ListName, Enqueue)
    /// Every saved list with its size; with a name, that list's tracks.
    case lists(ListName?)
    /// Delete list `name`.
    case forget(ListName)
    /// Rename a list.
    case rename(ListName, to: ListName)
    /// Add tracks (or catalog ids) to the end of list `name`.
    case listAdd(ListName, AddSource)
    /// Remove the track at `index` of list `name` (every track when nil).
    case listRemove(ListName, index: Int?)
    /// Add a queue item (the current one when nil) to the shortlist (the list `marked`), or take it off.
    case mark(QueueRef?)
    case unmark(QueueRef?)
    /// The newest `limit` previews heard for five seconds or more.
    case history(limit: Int)

    /// Parses `request`, or explains what is wrong with it.
    public init(_ request: ControlRequest) throws(ControlError) {
        let args = request.args ?? [:]
        switch request.cmd {
        case "hello": self = .hello
        case "search":
            var query = CatalogQuery(
                term: try Self.string(args, "term"), artist: try Self.string(args, "artist"),
                album: try Self.string(args, "album"), song: try Self.string(args, "song"),
                media: try Self.string(args, "media"), entity: try Self.string(args, "entity"),
                attribute: try Self.string(args, "attribute"), country: try Self.string(args, "country"),
                explicit: try Self.bool(args, "explicit"))
            query.limit = try Self.int(args, "limit") ?? CatalogQuery.limits.default
            query.offset = try Self.int(args, "offset") ?? 0
            try query.validate()
            self = .search(query, try Self.enqueue(args))
        case "lookup":
            let ids: [Int]
            switch args["id"] {
            case .array(let list)?: ids = list.compactMap(\.intValue).count == list.count ? list.compactMap(\.intValue) : []
            case .number?: ids = args["id"]?.intValue.map { [$0] } ?? []
            case .string(let text)?: ids = LookupQuery.ids(text) ?? []
            default: ids = []
            }
            // "sort": "recent" is Apple's own lookup order; the other sort keys are previewd's.
            let recent = try Self.string(args, "sort") == "recent"
            var rest = args
            if recent { rest["sort"] = nil }
            let query = LookupQuery(ids: ids, entity: try Self.string(args, "entity") ?? "song",
                                    limit: try Self.int(args, "limit"), sort: recent ? "recent" : nil,
                                    country: try Self.string(args, "country"))
            try query.validate()
            self = .lookup(query, try Self.enqueue(rest))
        case "top":
            let query = ChartQuery(limit: try Self.int(args, "limit") ?? 50, country: try Self.string(args, "country"),
                                   genre: try Self.int(args, "genre"))
            try query.validate()
            self = .top(query, try Self.enqueue(args))
        case "more": self = .more(queue: try Self.bool(args, "queue") ?? true)
        case "add":
            var enqueue = try Self.enqueue(args, play: false)
            enqueue.at = enqueue.at ?? .end
            self = .add(try AddSource(args), enqueue)
        case "info": self = .info(try Self.ref(args))
        case "artwork" where try Self.bool(args, "original") == true:
            let offset = try Self.index(args, "offset") ?? 0
            self = .artworkFile(try Self.ref(args), offset: offset)
        case "artwork":
            let width = try Self.int(args, "width") ?? 32, height = try Self.int(args, "height") ?? 32
            guard (1...ArtworkRequest.maxSide).contains(width), (1...ArtworkRequest.maxSide).contains(height) else {
                throw ControlError(.badArgument, "\"width\" and \"height\" must be 1–\(ArtworkRequest.maxSide)")
            }
            self = .artwork(try Self.ref(args), width: width, height: height)
        case "share": self = .share
        case "clear": self = .clear
        case "remove":
            guard let item = try Self.ref(args) else { throw ControlError(.badArgument, "remove needs \"index\" or \"id\"") }
            self = .remove(item)
        case "move":
            guard let from = try Self.ref(args, index: "from", id: "fromId"), let to = try Self.ref(args, index: "to", id: "toId") else {
                throw ControlError(.badArgument, "move needs \"from\" (or \"fromId\") and \"to\" (or \"toId\")")
            }
            self = .move(from: from, to: to)
        case "subscribe": self = .subscribe(position: try Self.bool(args, "position") ?? false)
        case "play":
            let item = try Self.ref(args)
            var startMs = 0
            if let position = args["position"], position != .null {
                guard case .number(let seconds) = position, seconds >= 0, seconds < 86_400 else {
                    throw ControlError(.badArgument, "\"position\" must be a number of seconds, 0 or more")
                }
                startMs = Int((seconds * 1000).rounded())
            }
            let paused = try Self.bool(args, "paused") ?? false
            guard item != nil || (startMs == 0 && !paused) else {
                throw ControlError(.badArgument, "\"position\" and \"paused\" need the item (\"index\" or \"id\")")
            }
            self = .play(item, startMs: startMs, paused: paused)
        case "pause": self = .pause
        case "resume": self = .resume
        case "toggle": self = .toggle
        case "stop": self = .stop
        case "next": self = .next
        case "prev": self = .prev
        case "seek":
            if let position = args["position"], position != .null {
                guard case .number(let seconds) = position, seconds >= 0, seconds < 86_400 else {
                    throw ControlError(.badArgument, "\"position\" must be a number of seconds, 0 or more")
                }
                self = .seek(.absolute(ms: Int((seconds * 1000).rounded())))
            } else if let delta = args["delta"], delta != .null {
                guard case .number(let seconds) = delta, abs(seconds) < 86_400 else {
                    throw ControlError(.badArgument, "\"delta\" must be a number of seconds")
                }
                self = .seek(.relative(ms: Int((seconds * 1000).rounded())))
            } else {
                throw ControlError(.badArgument, "seek needs \"position\" (seconds) or \"delta\" (± seconds)")
            }
        case "volume":
            if let level = try Self.int(args, "level") {
                guard (0...100).contains(level) else { throw ControlError(.badArgument, "volume level must be 0–100 (got \(level))") }
                self = .volume(.set(level))
            } else if let delta = try Self.int(args, "delta") {
                guard (-100...100).contains(delta) else { throw ControlError(.badArgument, "volume delta must be -100–100") }
                self = .volume(.by(delta))
            } else {
                self = .volume(nil)
            }
        case "mute":
            guard let on = args["on"], on != .null else { self = .mute(nil); break }
            guard let value = on.boolValue else { throw ControlError(.badArgument, "\"on\" must be true or false") }
            self = .mute(value)
        case "repeat":
            guard let mode = args["mode"]?.stringValue.flatMap(RepeatMode.init(rawValue:)) else {
                throw ControlError(.badArgument, "repeat needs \"mode\": \"off\", \"one\" or \"all\"")
            }
            self = .setRepeat(mode)
        case "shuffle" where args["order"] != nil:
            guard case .array(let list)? = args["order"], case let ids = list.compactMap(\.intValue), ids.count == list.count, !ids.isEmpty else {
                throw ControlError(.badArgument, "\"order\" must be the queue's item ids in the order to play them")
            }
            self = .shuffleOrder(ids)
        case "shuffle":
            guard let on = args["on"]?.boolValue else { throw ControlError(.badArgument, "shuffle needs \"on\": true or false") }
            self = .setShuffle(on)
        case "single":
            guard let mode = args["mode"]?.stringValue.flatMap(SingleMode.init(rawValue:)) else {
                throw ControlError(.badArgument, "single needs \"mode\": \"off\", \"on\" or \"oneshot\"")
            }
            self = .setSingle(mode)
        case "consume":
            guard let on = args["on"]?.boolValue else { throw ControlError(.badArgument, "consume needs \"on\": true or false") }
            self = .setConsume(on)
        case "status": self = .status
        case "memory": self = .memory
        case "save": self = .save(try Self.listName(args), append: try Self.bool(args, "append") ?? false)
        case "load": self = .load(try Self.listName(args), try Self.enqueue(args))
        case "lists": self = .lists(try Self.string(args, "name").map { text throws(ControlError) in try ListName(text) })
        case "forget": self = .forget(try Self.listName(args))
        case "rename": self = .rename(try Self.listName(args), to: try Self.listName(args, "to"))
        case "listadd": self = .listAdd(try Self.listName(args), try AddSource(args))
        case "listremove": self = .listRemove(try Self.listName(args), index: try Self.index(args, "index"))
        case "mark": self = .mark(try Self.ref(args))
        case "unmark": self = .unmark(try Self.ref(args))
        case "history":
            let limit = try Self.int(args, "limit") ?? 20
            guard (1...10_000).contains(limit) else { throw ControlError(.badArgument, "\"limit\" must be 1–10000") }
            self = .history(limit: limit)
        case "queue": self = .queue(since: try Self.index(args, "since"))
        default:
            throw ControlError(.unknownCommand, "unknown command \"\(String(request.cmd.prefix(64)))\"")
        }
    }

    /// This command as a request with `id`.
    public func request(id: Int?) -> ControlRequest {
        switch self {
        case .hello: return ControlRequest(id: id, cmd: "hello")
        case .search(let q, let e):
            var args = Self.enqueueArgs(e)
            for (key, value) in [("term", q.term), ("artist", q.artist), ("album", q.album), ("song", q.song),
                                 ("media", q.media), ("entity", q.entity), ("attribute", q.attribute), ("country", q.country)] {
                if let value { args[key] = .string(value) }
            }
            args["limit"] = .number(Double(q.limit))
            if q.offset > 0 { args["offset"] = .number(Double(q.offset)) }
            if let explicit = q.explicit { args["explicit"] = .bool(explicit) }
            return ControlRequest(id: id, cmd: "search", args: args)
        case .lookup(let q, let e):
            var args = Self.enqueueArgs(e)
            args["id"] = .array(q.ids.map { .number(Double($0)) })
            if let entity = q.entity { args["entity"] = .string(entity) }
            if let limit = q.limit { args["limit"] = .number(Double(limit)) }
            if let sort = q.sort, e.sort == nil { args["sort"] = .string(sort) }
            if let country = q.country { args["country"] = .string(country) }
            return ControlRequest(id: id, cmd: "lookup", args: args)
        case .top(let q, let e):
            var args = Self.enqueueArgs(e)
            args["limit"] = .number(Double(q.limit))
            if let country = q.country { args["country"] = .string(country) }
            if let genre = q.genre { args["genre"] = .number(Double(genre)) }
            return ControlRequest(id: id, cmd: "top", args: args)
        case .more(let queue): return ControlRequest(id: id, cmd: "more", args: queue ? nil : ["queue": .bool(false)])
        case .add(let source, let e):
            return ControlRequest(id: id, cmd: "add", args: Self.enqueueArgs(e).merging(source.args) { $1 })
        case .info(let item): return ControlRequest(id: id, cmd: "info", args: item.map { Self.args($0) })
        case .artwork(let item, let width, let height):
            var args: [String: JSONValue] = ["width": .number(Double(width)), "height": .number(Double(height))]
            if let item { args.merge(Self.args(item)) { $1 } }
            return ControlRequest(id: id, cmd: "artwork", args: args)
        case .artworkFile(let item, let offset):
            var args: [String: JSONValue] = ["original": .bool(true), "offset": .number(Double(offset))]
            if let item { args.merge(Self.args(item)) { $1 } }
            return ControlRequest(id: id, cmd: "artwork", args: args)
        case .share: return ControlRequest(id: id, cmd: "share")
        case .clear: return ControlRequest(id: id, cmd: "clear")
        case .remove(let item): return ControlRequest(id: id, cmd: "remove", args: Self.args(item))
        case .move(let from, let to):
            return ControlRequest(id: id, cmd: "move", args: Self.args(from, index: "from", id: "fromId").merging(Self.args(to, index: "to", id: "toId")) { $1 })
        case .subscribe(let position): return ControlRequest(id: id, cmd: "subscribe", args: ["position": .bool(position)])
        case .play(let item, let startMs, let paused):
            var args = item.map { Self.args($0) } ?? [:]
            if startMs > 0 { args["position"] = .number(Double(startMs) / 1000) }
            if paused { args["paused"] = .bool(true) }
            return ControlRequest(id: id, cmd: "play", args: args.isEmpty ? nil : args)
        case .pause: return ControlRequest(id: id, cmd: "pause")
        case .resume: return ControlRequest(id: id, cmd: "resume")
        case .toggle: return ControlRequest(id: id, cmd: "toggle")
        case .stop: return ControlRequest(id: id, cmd: "stop")
        case .next: return ControlRequest(id: id, cmd: "next")
        case .prev: return ControlRequest(id: id, cmd: "prev")
        case .seek(.absolute(let ms)):
            return ControlRequest(id: id, cmd: "seek", args: ["position": .number(Double(ms) / 1000)])
        case .seek(.relative(let ms)):
            return ControlRequest(id: id, cmd: "seek", args: ["delta": .number(Double(ms) / 1000)])
        case .volume(nil): return ControlRequest(id: id, cmd: "volume")
        case .volume(.set(let level)?): return ControlRequest(id: id, cmd: "volume", args: ["level": .number(Double(level))])
        case .volume(.by(let delta)?): return ControlRequest(id: id, cmd: "volume", args: ["delta": .number(Double(delta))])
        case .mute(let on): return ControlRequest(id: id, cmd: "mute", args: on.map { ["on": .bool($0)] })
        case .setRepeat(let mode): return ControlRequest(id: id, cmd: "repeat", args: ["mode": .string(mode.rawValue)])
        case .setShuffle(let on): return ControlRequest(id: id, cmd: "shuffle", args: ["on": .bool(on)])
        case .setSingle(let mode): return ControlRequest(id: id, cmd: "single", args: ["mode": .string(mode.rawValue)])
        case .setConsume(let on): return ControlRequest(id: id, cmd: "consume", args: ["on": .bool(on)])
        case .shuffleOrder(let ids): return ControlRequest(id: id, cmd: "shuffle", args: ["on": .bool(true), "order": .array(ids.map { .number(Double($0)) })])
        case .status: return ControlRequest(id: id, cmd: "status")
        case .memory: return ControlRequest(id: id, cmd: "memory")
        case .save(let name, let append): return ControlRequest(id: id, cmd: "save", args: ["name": .string(name.description), "append": .bool(append)])
        case .load(let name, let e):
            return ControlRequest(id: id, cmd: "load", args: Self.enqueueArgs(e).merging(["name": .string(name.description)]) { $1 })
        case .lists(let name): return ControlRequest(id: id, cmd: "lists", args: name.map { ["name": .string($0.description)] })
        case .forget(let name): return ControlRequest(id: id, cmd: "forget", args: ["name": .string(name.description)])
        case .rename(let name, let new): return ControlRequest(id: id, cmd: "rename", args: ["name": .string(name.description), "to": .string(new.description)])
        case .listAdd(let name, let source):
            return ControlRequest(id: id, cmd: "listadd", args: source.args.merging(["name": .string(name.description)]) { $1 })
        case .listRemove(let name, let index):
            var args: [String: JSONValue] = ["name": .string(name.description)]
            if let index { args["index"] = .number(Double(index)) }
            return ControlRequest(id: id, cmd: "listremove", args: args)
        case .mark(let item): return ControlRequest(id: id, cmd: "mark", args: item.map { Self.args($0) })
        case .unmark(let item): return ControlRequest(id: id, cmd: "unmark", args: item.map { Self.args($0) })
        case .history(let limit): return ControlRequest(id: id, cmd: "history", args: ["limit": .number(Double(limit))])
        case .queue(let since): return ControlRequest(id: id, cmd: "queue", args: since.map { ["since": .number(Double($0))] })
        }
    }

    private static func int(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Int? {
        guard let value = args[key], value != .null else { return nil }
        guard let n = value.intValue else { throw ControlError(.badArgument, "\"\(key)\" must be an integer") }
        return n
    }

    static func index(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Int? {
        let n = try int(args, key)
        if let n, n < 0 { throw ControlError(.badArgument, "\"\(key)\" must be an index, 0 or more (got \(n))") }
        return n
    }

    /// A queue item named by its position (`index`) or its id (`id`), not both; nil when neither is given.
    private static func ref(_ args: [String: JSONValue], index indexKey: String = "index", id idKey: String = "id") throws(ControlError) -> QueueRef? {
        let index = try index(args, indexKey), id = try int(args, idKey)
        switch (index, id) {
        case (let index?, nil): return .index(index)
        case (nil, let id?):
            guard id > 0 else { throw ControlError(.badArgument, "\"\(idKey)\" must be a queue item's id, 1 or more (got \(id))") }
            return .id(id)
        case (nil, nil): return nil
        case (_?, _?): throw ControlError(.badArgument, "give \"\(indexKey)\" or \"\(idKey)\", not both")
        }
    }

    /// The arguments that name `item`.
    private static func args(_ item: QueueRef, index indexKey: String = "index", id idKey: String = "id") -> [String: JSONValue] {
        switch item {
        case .index(let index): return [indexKey: .number(Double(index))]
        case .id(let id): return [idKey: .number(Double(id))]
        }
    }

    static func string(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> String? {
        guard let value = args[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw ControlError(.badArgument, "\"\(key)\" must be a string") }
        guard text.utf8.count <= 1000 else { throw ControlError(.badArgument, "\"\(key)\" is too long") }
        return text
    }

    /// A list name under `key` (default `name`), checked.
    private static func listName(_ args: [String: JSONValue], _ key: String = "name") throws(ControlError) -> ListName {
        guard let text = try string(args, key) else { throw ControlError(.badArgument, "give the list's \"\(key)\"") }
        return try ListName(text)
    }

    static func bool(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Bool? {
        guard let value = args[key], value != .null else { return nil }
        guard let flag = value.boolValue else { throw ControlError(.badArgument, "\"\(key)\" must be true or false") }
        return flag
    }

    /// `append`, `at`, `play`, `queue`, `sort` and `desc` of a command that queues.
    private static func enqueue(_ args: [String: JSONValue], play: Bool = true) throws(ControlError) -> Enqueue {
        var sort: TrackSort?
        if let key = try string(args, "sort") {
            guard let parsed = TrackSort.Key(rawValue: key) else {
                throw ControlError(.badArgument, "sort must be one of: \(TrackSort.Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            sort = TrackSort(parsed, descending: try bool(args, "desc") ?? false)
        }
        var at: InsertPosition?
        switch args["at"] {
        case nil, .null?: at = nil
        case .string("next")?: at = .next
        case .string("end")?: at = .end
        case let value?:
            guard let index = value.intValue, index >= 0 else {
                throw ControlError(.badArgument, "\"at\" must be a queue index (0 or more), \"next\" or \"end\"")
            }
            at = .index(index)
        }
        return Enqueue(append: try bool(args, "append") ?? false, play: try bool(args, "play") ?? play, sort: sort,
                       queue: try bool(args, "queue") ?? true, at: at)
    }

    private static func enqueueArgs(_ e: Enqueue) -> [String: JSONValue] {
        var args: [String: JSONValue] = ["append": .bool(e.append), "play": .bool(e.play)]
        if let sort = e.sort {
            args["sort"] = .string(sort.key.rawValue)
            args["desc"] = .bool(sort.descending)
        }
        if !e.queue { args["queue"] = .bool(false) }
        switch e.at {
        case nil: break
        case .end?: args["at"] = .string("end")
        case .next?: args["at"] = .string("next")
        case .index(let index)?: args["at"] = .number(Double(index))
        }
        return args
    }
}

/// Where a seek goes.
public enum SeekTarget: Equatable, Sendable {
    /// To this position in the track.
    case absolute(ms: Int)
    /// By this much from the current position (negative: back).
    case relative(ms: Int)
}

/// A volume command: to a level, or by a step.
public enum VolumeChange: Equatable, Sendable {
    /// To this level, 0–100.
    case set(Int)
    /// By this much (negative: down); the result is clamped to 0–100.
    case by(Int)
}
