/// What `add` puts in the queue: catalog track ids, looked up in one call, or track objects with
/// the API's field names (as a `"queue": false` search answered them), which need no network.
public enum AddSource: Equatable, Sendable {
    /// iTunes track ids (1–200), in the order to queue them.
    case trackIds([Int])
    /// Tracks as the catalog describes them.
    case tracks([Track])

    /// `trackIds` or `tracks` of `add`'s arguments (exactly one).
    init(_ args: [String: JSONValue]) throws(ControlError) {
        switch (args["trackIds"], args["tracks"]) {
        case (.array(let list)?, nil):
            let ids = list.compactMap(\.intValue)
            guard ids.count == list.count, (1...200).contains(ids.count), ids.allSatisfy({ $0 > 0 }) else {
                throw ControlError(.badArgument, "\"trackIds\" must be 1–200 positive iTunes track ids")
            }
            self = .trackIds(ids)
        case (nil, .array(let list)?):
            guard (1...PlayQueue.maxCount).contains(list.count) else {
                throw ControlError(.badArgument, "\"tracks\" must hold 1–\(PlayQueue.maxCount) tracks")
            }
            var tracks: [Track] = []
            for (i, value) in list.enumerated() {
                guard case .object = value, let track = try? value.decode(as: Track.self) else {
                    throw ControlError(.badArgument, "\"tracks\"[\(i)] is not a track object (the API's field names)")
                }
                tracks.append(track)
            }
            self = .tracks(tracks)
        default:
            throw ControlError(.badArgument, "add needs \"trackIds\" (an array of ids) or \"tracks\" (an array of track objects), not both")
        }
    }

    /// The arguments that say this.
    var args: [String: JSONValue] {
        switch self {
        case .trackIds(let ids): return ["trackIds": .array(ids.map { .number(Double($0)) })]
        case .tracks(let tracks): return ["tracks": .array(tracks.compactMap { try? JSONValue(encoding: $0) })]
        }
    }
}
