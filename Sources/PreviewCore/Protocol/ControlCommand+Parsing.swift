#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading a request: each command's arguments checked, with a clear error for what is wrong.
extension ControlCommand {
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
                explicit: try Self.bool(args, "explicit"), albums: try Self.bool(args, "albums"))
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
            // `"replace": true, "play": k`: the queue becomes the list and its track k plays, in one change.
            var rest = args
            let start = args["play"]?.boolValue == nil ? try Self.index(args, "play") : nil
            if start != nil { rest["play"] = .bool(true) }
            var enqueue = try Self.enqueue(rest, play: false)
            if try Self.bool(args, "replace") == true {
                guard enqueue.at == nil, !enqueue.append else { throw ControlError(.badArgument, "\"replace\" takes no \"at\" or \"append\"") }
                enqueue.start = start
            } else {
                guard start == nil else { throw ControlError(.badArgument, "\"play\" names a track to play only with \"replace\": true") }
                enqueue.at = enqueue.at ?? .end
            }
            self = .add(try AddSource(args), enqueue)
        case "visible":
            guard case .array(let list)? = args["trackIds"], list.count <= 200,
                  list.allSatisfy({ ($0.intValue ?? 0) > 0 }) else {
                throw ControlError(.badArgument, "visible needs \"trackIds\": the iTunes track ids on screen, at most 200")
            }
            self = .visible(list.compactMap(\.intValue))
        case "info": self = .info(try Self.ref(args))
        case "artwork" where try Self.bool(args, "original") == true:
            let offset = try Self.index(args, "offset") ?? 0
            if let trackId = try Self.int(args, "trackId") {
                guard args["index"] == nil, args["id"] == nil else { throw ControlError(.badArgument, "give \"trackId\", \"index\" or \"id\", one of them") }
                self = .trackArtworkFile(trackId: trackId, small: try Self.bool(args, "small") ?? false, offset: offset)
            } else {
                self = .artworkFile(try Self.ref(args), offset: offset)
            }
        case "artwork":
            let width = try Self.int(args, "width") ?? 32, height = try Self.int(args, "height") ?? 32
            guard (1...ArtworkRequest.maxSide).contains(width), (1...ArtworkRequest.maxSide).contains(height) else {
                throw ControlError(.badArgument, "\"width\" and \"height\" must be 1–\(ArtworkRequest.maxSide)")
            }
            self = .artwork(try Self.ref(args), width: width, height: height)
        case "share": self = .share
        case "clear": self = .clear
        case "shufflequeue":
            let start = try Self.index(args, "start"), end = try Self.index(args, "end")
            switch (start, end) {
            case (nil, nil): self = .shuffleQueue(nil)
            case (let start?, let end?) where start < end: self = .shuffleQueue(start..<end)
            default: throw ControlError(.badArgument, "shufflequeue takes \"start\" and \"end\" (start < end), or neither")
            }
        case "remove":
            guard let item = try Self.ref(args) else { throw ControlError(.badArgument, "remove needs \"index\" or \"id\"") }
            self = .remove(item)
        case "move":
            guard let from = try Self.ref(args, index: "from", id: "fromId"), let to = try Self.ref(args, index: "to", id: "toId") else {
                throw ControlError(.badArgument, "move needs \"from\" (or \"fromId\") and \"to\" (or \"toId\")")
            }
            self = .move(from: from, to: to)
        case "swap":
            guard let a = try Self.ref(args), let b = try Self.ref(args, index: "with", id: "withId") else {
                throw ControlError(.badArgument, "swap needs \"index\" (or \"id\") and \"with\" (or \"withId\")")
            }
            self = .swap(a, b)
        case "priority":
            guard let priority = try Self.int(args, "priority"), (0...255).contains(priority) else {
                throw ControlError(.badArgument, "priority needs \"priority\": 0–255")
            }
            guard case .array(let list)? = args["ids"], case let ids = list.compactMap(\.intValue), ids.count == list.count,
                  (1...PlayQueue.maxCount).contains(ids.count), ids.allSatisfy({ $0 > 0 }) else {
                throw ControlError(.badArgument, "priority needs \"ids\": the queue items' ids")
            }
            self = .setPriority(priority, ids.map { .id($0) })
        case "clearerror": self = .clearError
        case "output":
            guard let enabled = args["enabled"], enabled != .null else { self = .setOutput(enabled: nil); break }
            guard let value = enabled.boolValue else { throw ControlError(.badArgument, "\"enabled\" must be true or false") }
            self = .setOutput(enabled: value)
        case "normalize":
            guard let mode = args["mode"]?.stringValue.flatMap(LoudnessNormalization.Mode.init(rawValue:)) else {
                throw ControlError(.badArgument, "normalize needs \"mode\": \"track\" or \"off\"")
            }
            self = .setNormalization(mode)
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
        case "crossfade":
            guard let value = args["seconds"] else { self = .crossfade(nil); break }
            guard let seconds = value.intValue, PlayerCore.crossfadeRange.contains(seconds) else {
                throw ControlError(.badArgument, "crossfade needs \"seconds\": a whole number 0–15")
            }
            self = .crossfade(seconds)
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
        case "listmove":
            guard let from = try Self.index(args, "from"), let to = try Self.index(args, "to") else {
                throw ControlError(.badArgument, "listmove needs \"from\" and \"to\" (indexes)")
            }
            self = .listMove(try Self.listName(args), from: from, to: to)
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

    static func int(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Int? {
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
    static func ref(_ args: [String: JSONValue], index indexKey: String = "index", id idKey: String = "id") throws(ControlError) -> QueueRef? {
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

    static func string(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> String? {
        guard let value = args[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw ControlError(.badArgument, "\"\(key)\" must be a string") }
        guard text.utf8.count <= 1000 else { throw ControlError(.badArgument, "\"\(key)\" is too long") }
        return text
    }

    /// A list name under `key` (default `name`), checked.
    static func listName(_ args: [String: JSONValue], _ key: String = "name") throws(ControlError) -> ListName {
        guard let text = try string(args, key) else { throw ControlError(.badArgument, "give the list's \"\(key)\"") }
        return try ListName(text)
    }

    static func bool(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Bool? {
        guard let value = args[key], value != .null else { return nil }
        guard let flag = value.boolValue else { throw ControlError(.badArgument, "\"\(key)\" must be true or false") }
        return flag
    }

    /// `append`, `at`, `play`, `queue`, `sort` and `desc` of a command that queues.
    static func enqueue(_ args: [String: JSONValue], play: Bool = true) throws(ControlError) -> Enqueue {
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
}
