/// What a page says of its own playback (`playhere`, previewd-web's "Play here").
public enum PlayHereCommand: Equatable, Sendable {
    /// Page `page` plays the queue from now on (taking it over from any other page); `hereOnly`: the
    /// box's device outputs go silent.
    case claim(page: String, hereOnly: Bool)
    /// Page `page` stops playing here: the box's outputs sound again at the position reached.
    case release(page: String)
    /// Where page `page` is in queue item `item`, and whether it plays (its clock).
    case report(page: String, item: Int, positionMs: Int, playing: Bool)
    /// Queue item `item` ended in page `page`: previewd advances, unless it has left that item already.
    case ended(page: String, item: Int)
    /// Page `page` could not play queue item `item` (no playable preview reached it): previewd marks it
    /// failed and goes on, as when the box cannot play a track, unless it has left that item already.
    case failed(page: String, item: Int)
}

extension ControlCommand {
    /// `playhere {"page": P, "on": true, "hereOnly": B}`, `{"page": P, "on": false}`,
    /// `{"page": P, "id": N, "positionMs": MS, "playing": B}`, `{"page": P, "ended": N}` or `{"page": P, "failed": N}`.
    static func playHere(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let page = try Self.string(args, "page"), (1...64).contains(page.utf8.count) else {
            throw ControlError(.badArgument, "playhere needs \"page\": the page's own name, 1–64 bytes")
        }
        if let on = try Self.bool(args, "on") {
            return .playHere(on ? .claim(page: page, hereOnly: try Self.bool(args, "hereOnly") ?? true) : .release(page: page))
        }
        if let item = try Self.index(args, "ended") { return .playHere(.ended(page: page, item: item)) }
        if let item = try Self.index(args, "failed") { return .playHere(.failed(page: page, item: item)) }
        guard let item = try Self.index(args, "id"), let position = try Self.index(args, "positionMs") else {
            throw ControlError(.badArgument, "playhere needs \"on\", \"ended\", \"failed\", or \"id\" with \"positionMs\"")
        }
        return .playHere(.report(page: page, item: item, positionMs: position, playing: try Self.bool(args, "playing") ?? true))
    }

    /// `audio {"id": N, "offset": O}`: a chunk of queue item N's preview as previewd holds it (fetched first when needed).
    static func audio(args: [String: JSONValue]) throws(ControlError) -> ControlCommand {
        guard let item = try Self.index(args, "id") else { throw ControlError(.badArgument, "audio needs \"id\": a queue item's id") }
        return .audioFile(item: item, offset: try Self.index(args, "offset") ?? 0)
    }
}

extension PlayHereCommand {
    /// The arguments on the wire (`ControlCommand.request(id:)`).
    var args: [String: JSONValue] {
        switch self {
        case .claim(let page, let hereOnly): ["page": .string(page), "on": .bool(true), "hereOnly": .bool(hereOnly)]
        case .release(let page): ["page": .string(page), "on": .bool(false)]
        case .report(let page, let item, let positionMs, let playing):
            ["page": .string(page), "id": .number(Double(item)), "positionMs": .number(Double(positionMs)), "playing": .bool(playing)]
        case .ended(let page, let item): ["page": .string(page), "ended": .number(Double(item))]
        case .failed(let page, let item): ["page": .string(page), "failed": .number(Double(item))]
        }
    }
}
