/// Writing a command as a request (previewctl sends these; `init(_:)` reads them back the same).
extension ControlCommand {
    /// This command as a request with `id`.
    public func request(id: Int?) -> ControlRequest {
        switch self {
        case .hello: return ControlRequest(id: id, verb: .hello)
        case .search(let q, let e):
            var args = Self.enqueueArgs(e)
            for (key, value) in [("term", q.term), ("artist", q.artist), ("album", q.album), ("song", q.song),
                                 ("media", q.media), ("entity", q.entity), ("attribute", q.attribute), ("country", q.country)] {
                if let value { args[key] = .string(value) }
            }
            args["limit"] = .number(Double(q.limit))
            if q.offset > 0 { args["offset"] = .number(Double(q.offset)) }
            if let explicit = q.explicit { args["explicit"] = .bool(explicit) }
            if let albums = q.albums { args["albums"] = .bool(albums) }
            return ControlRequest(id: id, verb: .search, args: args)
        case .lookup(let q, let e):
            var args = Self.enqueueArgs(e)
            args["id"] = .array(q.ids.map { .number(Double($0)) })
            if let entity = q.entity { args["entity"] = .string(entity) }
            if let limit = q.limit { args["limit"] = .number(Double(limit)) }
            if let sort = q.sort, e.sort == nil { args["sort"] = .string(sort) }
            if let country = q.country { args["country"] = .string(country) }
            return ControlRequest(id: id, verb: .lookup, args: args)
        case .top(let q, let e):
            var args = Self.enqueueArgs(e)
            args["limit"] = .number(Double(q.limit))
            if let country = q.country { args["country"] = .string(country) }
            if let genre = q.genre { args["genre"] = .number(Double(genre)) }
            return ControlRequest(id: id, verb: .top, args: args)
        case .more(let queue): return ControlRequest(id: id, verb: .more, args: queue ? nil : ["queue": .bool(false)])
        case .add(let source, let e):
            var args = Self.enqueueArgs(e).merging(source.args) { $1 }
            if e.destination == nil {
                args["replace"] = .bool(true)
                if let start = e.start { args["play"] = .number(Double(start)) }
            }
            return ControlRequest(id: id, verb: .add, args: args)
        case .visible(let ids): return ControlRequest(id: id, verb: .visible, args: ["trackIds": .array(ids.map { .number(Double($0)) })])
        case .info(let item): return ControlRequest(id: id, verb: .info, args: item.map { Self.args($0) })
        case .artwork(let item, let width, let height):
            var args: [String: JSONValue] = ["width": .number(Double(width)), "height": .number(Double(height))]
            if let item { args.merge(Self.args(item)) { $1 } }
            return ControlRequest(id: id, verb: .artwork, args: args)
        case .artworkFile(let item, let offset):
            var args: [String: JSONValue] = ["original": .bool(true), "offset": .number(Double(offset))]
            if let item { args.merge(Self.args(item)) { $1 } }
            return ControlRequest(id: id, verb: .artwork, args: args)
        case .trackArtworkFile(let trackId, let small, let offset):
            var args: [String: JSONValue] = ["original": .bool(true), "trackId": .number(Double(trackId)), "offset": .number(Double(offset))]
            if small { args["small"] = .bool(true) }
            return ControlRequest(id: id, verb: .artwork, args: args)
        case .audioFile(let item, let offset):
            return ControlRequest(id: id, verb: .audio, args: ["id": .number(Double(item)), "offset": .number(Double(offset))])
        case .playHere(let command): return ControlRequest(id: id, verb: .playhere, args: command.args)
        case .share: return ControlRequest(id: id, verb: .share)
        case .clear: return ControlRequest(id: id, verb: .clear)
        case .shuffleQueue(let range):
            return ControlRequest(id: id, verb: .shufflequeue, args: range.map { ["start": .number(Double($0.lowerBound)), "end": .number(Double($0.upperBound))] })
        case .remove(let item): return ControlRequest(id: id, verb: .remove, args: Self.args(item))
        case .move(let from, let to):
            return ControlRequest(id: id, verb: .move, args: Self.args(from, index: "from", id: "fromId").merging(Self.args(to, index: "to", id: "toId")) { $1 })
        case .swap(let a, let b):
            return ControlRequest(id: id, verb: .swap, args: Self.args(a).merging(Self.args(b, index: "with", id: "withId")) { $1 })
        case .setPriority(let priority, let refs):
            let ids: [JSONValue] = refs.compactMap { if case .id(let id) = $0 { .number(Double(id)) } else { nil } }
            return ControlRequest(id: id, verb: .priority, args: ["priority": .number(Double(priority)), "ids": .array(ids)])
        case .clearError: return ControlRequest(id: id, verb: .clearerror)
        case .setOutput(let enabled): return ControlRequest(id: id, verb: .output, args: enabled.map { ["enabled": .bool($0)] })
        case .switchOutput(let output, let enabled):
            var args: [String: JSONValue] = ["id": .number(Double(output))]
            if let enabled { args["enabled"] = .bool(enabled) }
            return ControlRequest(id: id, verb: .output, args: args)
        case .setNormalization(let mode): return ControlRequest(id: id, verb: .normalize, args: ["mode": .string(mode.rawValue)])
        case .subscribe(let position): return ControlRequest(id: id, verb: .subscribe, args: ["position": .bool(position)])
        case .play(let item, let startMs, let paused):
            var args = item.map { Self.args($0) } ?? [:]
            if startMs > 0 { args["position"] = .number(Double(startMs) / 1000) }
            if paused { args["paused"] = .bool(true) }
            return ControlRequest(id: id, verb: .play, args: args.isEmpty ? nil : args)
        case .pause: return ControlRequest(id: id, verb: .pause)
        case .resume: return ControlRequest(id: id, verb: .resume)
        case .toggle: return ControlRequest(id: id, verb: .toggle)
        case .stop: return ControlRequest(id: id, verb: .stop)
        case .next: return ControlRequest(id: id, verb: .next)
        case .prev: return ControlRequest(id: id, verb: .prev)
        case .seek(.absolute(let ms)):
            return ControlRequest(id: id, verb: .seek, args: ["position": .number(Double(ms) / 1000)])
        case .seek(.relative(let ms)):
            return ControlRequest(id: id, verb: .seek, args: ["delta": .number(Double(ms) / 1000)])
        case .volume(nil): return ControlRequest(id: id, verb: .volume)
        case .volume(.set(let level)?): return ControlRequest(id: id, verb: .volume, args: ["level": .number(Double(level))])
        case .volume(.by(let delta)?): return ControlRequest(id: id, verb: .volume, args: ["delta": .number(Double(delta))])
        case .mute(let on): return ControlRequest(id: id, verb: .mute, args: on.map { ["on": .bool($0)] })
        case .setRepeat(let mode): return ControlRequest(id: id, verb: .repeat, args: ["mode": .string(mode.rawValue)])
        case .setShuffle(let on): return ControlRequest(id: id, verb: .shuffle, args: ["on": .bool(on)])
        case .setSingle(let mode): return ControlRequest(id: id, verb: .single, args: ["mode": .string(mode.rawValue)])
        case .crossfade(let seconds): return ControlRequest(id: id, verb: .crossfade, args: seconds.map { ["seconds": .number(Double($0))] })
        case .setConsume(let on): return ControlRequest(id: id, verb: .consume, args: ["on": .bool(on)])
        case .setRadio(let on, let skips):
            var args: [String: JSONValue] = ["on": .bool(on)]
            if let skips { args["skips"] = .object(skips.mapValues { .number(Double($0)) }) }
            return ControlRequest(id: id, verb: .radio, args: args)
        case .shuffleOrder(let ids): return ControlRequest(id: id, verb: .shuffle, args: ["on": .bool(true), "order": .array(ids.map { .number(Double($0)) })])
        case .status: return ControlRequest(id: id, verb: .status)
        case .memory: return ControlRequest(id: id, verb: .memory)
        case .library: return ControlRequest(id: id, verb: .library)
        case .save(let name, let mode):
            var args: [String: JSONValue] = ["name": .string(name.description)]
            if mode != .create { args[mode.rawValue] = .bool(true) }
            return ControlRequest(id: id, verb: .save, args: args)
        case .load(let name, let e):
            return ControlRequest(id: id, verb: .load, args: Self.enqueueArgs(e).merging(["name": .string(name.description)]) { $1 })
        case .lists(let name): return ControlRequest(id: id, verb: .lists, args: name.map { ["name": .string($0.description)] })
        case .forget(let name): return ControlRequest(id: id, verb: .forget, args: ["name": .string(name.description)])
        case .rename(let name, let new): return ControlRequest(id: id, verb: .rename, args: ["name": .string(name.description), "to": .string(new.description)])
        case .listAdd(let name, let source):
            return ControlRequest(id: id, verb: .listadd, args: source.args.merging(["name": .string(name.description)]) { $1 })
        case .listMove(let name, let from, let to):
            return ControlRequest(id: id, verb: .listmove, args: ["name": .string(name.description), "from": .number(Double(from)), "to": .number(Double(to))])
        case .listRemove(let name, let index):
            var args: [String: JSONValue] = ["name": .string(name.description)]
            if let index { args["index"] = .number(Double(index)) }
            return ControlRequest(id: id, verb: .listremove, args: args)
        case .mark(let item): return ControlRequest(id: id, verb: .mark, args: item.map { Self.args($0) })
        case .unmark(let item): return ControlRequest(id: id, verb: .unmark, args: item.map { Self.args($0) })
        case .history(let limit): return ControlRequest(id: id, verb: .history, args: ["limit": .number(Double(limit))])
        case .queue(let since): return ControlRequest(id: id, verb: .queue, args: since.map { ["since": .number(Double($0))] })
        }
    }

    /// The arguments that name `item`.
    static func args(_ item: QueueRef, index indexKey: String = "index", id idKey: String = "id") -> [String: JSONValue] {
        switch item {
        case .index(let index): return [indexKey: .number(Double(index))]
        case .id(let id): return [idKey: .number(Double(id))]
        }
    }

    static func enqueueArgs(_ e: Enqueue) -> [String: JSONValue] {
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
