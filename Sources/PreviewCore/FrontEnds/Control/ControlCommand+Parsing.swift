#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading a request: each command's arguments checked, with a clear error for what is wrong.
extension ControlCommand {
    /// Parses `request`, or explains what is wrong with it: its verb's row in `ControlVerb.all` reads it.
    public init(_ request: ControlRequest) throws(ControlError) {
        guard let verb = ControlVerb.named(request.cmd) else {
            throw ControlError(.unknownCommand, "unknown command \"\(String(request.cmd.prefix(64)))\"")
        }
        self = try verb.parse(request.args ?? [:])
    }

    // The parsers of the verbs that take arguments, named after the verb (`ControlVerbs.swift`).

    static func search(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        var query = CatalogQuery(
            term: try Self.string(args, "term"), artist: try Self.string(args, "artist"),
            album: try Self.string(args, "album"), song: try Self.string(args, "song"),
            media: try Self.string(args, "media"), entity: try Self.string(args, "entity"),
            attribute: try Self.string(args, "attribute"), country: try Self.string(args, "country"),
            explicit: try Self.bool(args, "explicit"), albums: try Self.bool(args, "albums"))
        query.limit = try Self.int(args, "limit") ?? CatalogQuery.limits.default
        query.offset = try Self.int(args, "offset") ?? 0
        try query.validate()
        return .search(query, try Self.enqueue(args))
    }

    static func lookup(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
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
        return .lookup(query, try Self.enqueue(rest))
    }

    static func top(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        let query = ChartQuery(limit: try Self.int(args, "limit") ?? 50, country: try Self.string(args, "country"),
                               genre: try Self.int(args, "genre"))
        try query.validate()
        return .top(query, try Self.enqueue(args))
    }

    static func more(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .more(queue: try Self.bool(args, "queue") ?? true)
    }

    static func add(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
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
        return .add(try AddSource(args), enqueue)
    }

    static func visible(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard case .array(let list)? = args["trackIds"], list.count <= 200,
              list.allSatisfy({ ($0.intValue ?? 0) > 0 }) else {
            throw ControlError(.badArgument, "visible needs \"trackIds\": the iTunes track ids on screen, at most 200")
        }
        return .visible(list.compactMap(\.intValue))
    }

    static func info(args: [String: JSONValue]) throws(ControlError) -> ControlCommand { .info(try Self.ref(args)) }

    /// `artwork`: a thumbnail, or with `"original": true` the file as fetched (of a queue item or a track).
    static func artwork(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        if try Self.bool(args, "original") == true {
            let offset = try Self.index(args, "offset") ?? 0
            if let trackId = try Self.int(args, "trackId") {
                guard args["index"] == nil, args["id"] == nil else { throw ControlError(.badArgument, "give \"trackId\", \"index\" or \"id\", one of them") }
                return .trackArtworkFile(trackId: trackId, small: try Self.bool(args, "small") ?? false, offset: offset)
            } else {
                return .artworkFile(try Self.ref(args), offset: offset)
            }
        }
        let width = try Self.int(args, "width") ?? 32, height = try Self.int(args, "height") ?? 32
        guard (1...ArtworkRequest.maxSide).contains(width), (1...ArtworkRequest.maxSide).contains(height) else {
            throw ControlError(.badArgument, "\"width\" and \"height\" must be 1–\(ArtworkRequest.maxSide)")
        }
        return .artwork(try Self.ref(args), width: width, height: height)
    }

    static func shuffleQueue(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        let start = try Self.index(args, "start"), end = try Self.index(args, "end")
        switch (start, end) {
        case (nil, nil): return .shuffleQueue(nil)
        case (let start?, let end?) where start < end: return .shuffleQueue(start..<end)
        default: throw ControlError(.badArgument, "shufflequeue takes \"start\" and \"end\" (start < end), or neither")
        }
    }

    static func remove(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let item = try Self.ref(args) else { throw ControlError(.badArgument, "remove needs \"index\" or \"id\"") }
        return .remove(item)
    }

    static func move(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let from = try Self.ref(args, index: "from", id: "fromId"), let to = try Self.ref(args, index: "to", id: "toId") else {
            throw ControlError(.badArgument, "move needs \"from\" (or \"fromId\") and \"to\" (or \"toId\")")
        }
        return .move(from: from, to: to)
    }

    static func swap(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let a = try Self.ref(args), let b = try Self.ref(args, index: "with", id: "withId") else {
            throw ControlError(.badArgument, "swap needs \"index\" (or \"id\") and \"with\" (or \"withId\")")
        }
        return .swap(a, b)
    }

    static func priority(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let priority = try Self.int(args, "priority"), (0...255).contains(priority) else {
            throw ControlError(.badArgument, "priority needs \"priority\": 0–255")
        }
        guard case .array(let list)? = args["ids"], case let ids = list.compactMap(\.intValue), ids.count == list.count,
              (1...PlayQueue.maxCount).contains(ids.count), ids.allSatisfy({ $0 > 0 }) else {
            throw ControlError(.badArgument, "priority needs \"ids\": the queue items' ids")
        }
        return .setPriority(priority, ids.map { .id($0) })
    }

    static func output(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        var value: Bool?
        if let enabled = args["enabled"], enabled != .null {
            guard let on = enabled.boolValue else { throw ControlError(.badArgument, "\"enabled\" must be true or false") }
            value = on
        }
        guard let id = args["id"], id != .null else { return .setOutput(enabled: value) }
        guard let number = id.intValue, number >= 0 else { throw ControlError(.badArgument, "\"id\" must be an output's id (0, 1…)") }
        return .switchOutput(id: number, enabled: value)
    }

    static func normalize(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let mode = args["mode"]?.stringValue.flatMap(LoudnessNormalization.Mode.init(rawValue:)) else {
            throw ControlError(.badArgument, "normalize needs \"mode\": \"track\" or \"off\"")
        }
        return .setNormalization(mode)
    }

    static func subscribe(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .subscribe(position: try Self.bool(args, "position") ?? false)
    }

    static func play(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
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
        return .play(item, startMs: startMs, paused: paused)
    }

    static func seek(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        if let position = args["position"], position != .null {
            guard case .number(let seconds) = position, seconds >= 0, seconds < 86_400 else {
                throw ControlError(.badArgument, "\"position\" must be a number of seconds, 0 or more")
            }
            return .seek(.absolute(ms: Int((seconds * 1000).rounded())))
        } else if let delta = args["delta"], delta != .null {
            guard case .number(let seconds) = delta, abs(seconds) < 86_400 else {
                throw ControlError(.badArgument, "\"delta\" must be a number of seconds")
            }
            return .seek(.relative(ms: Int((seconds * 1000).rounded())))
        } else {
            throw ControlError(.badArgument, "seek needs \"position\" (seconds) or \"delta\" (± seconds)")
        }
    }

    static func volume(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        if let level = try Self.int(args, "level") {
            guard (0...100).contains(level) else { throw ControlError(.badArgument, "volume level must be 0–100 (got \(level))") }
            return .volume(.set(level))
        } else if let delta = try Self.int(args, "delta") {
            guard (-100...100).contains(delta) else { throw ControlError(.badArgument, "volume delta must be -100–100") }
            return .volume(.by(delta))
        } else {
            return .volume(nil)
        }
    }

    static func mute(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let on = args["on"], on != .null else { return .mute(nil) }
        guard let value = on.boolValue else { throw ControlError(.badArgument, "\"on\" must be true or false") }
        return .mute(value)
    }

    static func `repeat`(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let mode = args["mode"]?.stringValue.flatMap(RepeatMode.init(rawValue:)) else {
            throw ControlError(.badArgument, "repeat needs \"mode\": \"off\", \"one\" or \"all\"")
        }
        return .setRepeat(mode)
    }

    /// `shuffle`: on or off, or with `order` a shuffled order given whole.
    static func shuffle(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        if args["order"] != nil {
            guard case .array(let list)? = args["order"], case let ids = list.compactMap(\.intValue), ids.count == list.count, !ids.isEmpty else {
                throw ControlError(.badArgument, "\"order\" must be the queue's item ids in the order to play them")
            }
            return .shuffleOrder(ids)
        }
        guard let on = args["on"]?.boolValue else { throw ControlError(.badArgument, "shuffle needs \"on\": true or false") }
        return .setShuffle(on)
    }

    static func single(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let mode = args["mode"]?.stringValue.flatMap(SingleMode.init(rawValue:)) else {
            throw ControlError(.badArgument, "single needs \"mode\": \"off\", \"on\" or \"oneshot\"")
        }
        return .setSingle(mode)
    }

    static func crossfade(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let value = args["seconds"] else { return .crossfade(nil) }
        guard let seconds = value.intValue, PlayerCore.crossfadeRange.contains(seconds) else {
            throw ControlError(.badArgument, "crossfade needs \"seconds\": a whole number 0–15")
        }
        return .crossfade(seconds)
    }

    static func radio(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let on = args["on"]?.boolValue else { throw ControlError(.badArgument, "radio needs \"on\": true or false") }
        guard let value = args["skips"] else { return .setRadio(on) }
        guard case .object(let fields) = value, fields.count <= 1_000 else {
            throw ControlError(.badArgument, "radio's \"skips\" is an object of lead keys and counts")
        }
        var skips: [String: Int] = [:]
        for (key, count) in fields {
            guard key.utf8.count <= 64, let n = count.intValue, (0...1_000).contains(n) else {
                throw ControlError(.badArgument, "radio's \"skips\" needs counts 0–1000 under keys of at most 64 bytes")
            }
            skips[key] = n
        }
        return .setRadio(on, skips: skips)
    }

    static func consume(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let on = args["on"]?.boolValue else { throw ControlError(.badArgument, "consume needs \"on\": true or false") }
        return .setConsume(on)
    }

    static func save(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        let name = try Self.listName(args)
        switch (try Self.bool(args, "append") ?? false, try Self.bool(args, "replace") ?? false) {
        case (true, true): throw ControlError(.badArgument, "save takes \"append\" or \"replace\", not both")
        case (true, false): return .save(name, mode: .append)
        case (false, true): return .save(name, mode: .replace)
        case (false, false): return .save(name, mode: .create)
        }
    }

    static func load(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .load(try Self.listName(args), try Self.enqueue(args))
    }

    static func lists(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .lists(try Self.string(args, "name").map { text throws(ControlError) in try ListName(text) })
    }

    static func forget(args: [String: JSONValue]) throws(ControlError) -> ControlCommand { .forget(try Self.listName(args)) }

    static func rename(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .rename(try Self.listName(args), to: try Self.listName(args, "to"))
    }

    static func listAdd(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .listAdd(try Self.listName(args), try AddSource(args))
    }

    static func listMove(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let from = try Self.index(args, "from"), let to = try Self.index(args, "to") else {
            throw ControlError(.badArgument, "listmove needs \"from\" and \"to\" (indexes)")
        }
        return .listMove(try Self.listName(args), from: from, to: to)
    }

    static func listRemove(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        .listRemove(try Self.listName(args), index: try Self.index(args, "index"))
    }

    static func mark(args: [String: JSONValue]) throws(ControlError) -> ControlCommand { .mark(try Self.ref(args)) }

    static func unmark(args: [String: JSONValue]) throws(ControlError) -> ControlCommand { .unmark(try Self.ref(args)) }

    static func history(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        let limit = try Self.int(args, "limit") ?? 20
        guard (1...10_000).contains(limit) else { throw ControlError(.badArgument, "\"limit\" must be 1–10000") }
        return .history(limit: limit)
    }

    static func queue(args: [String: JSONValue]) throws(ControlError) -> ControlCommand { .queue(since: try Self.index(args, "since")) }
}
