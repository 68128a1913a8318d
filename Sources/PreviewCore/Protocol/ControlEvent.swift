/// What a subscribed connection receives, one JSON object per line: `{"event": "state", ...}`.
public enum ControlEvent: Equatable, Sendable {
    /// The playback state or the current index changed.
    case state(PlaybackState, index: Int?)
    /// Another track became current.
    case track(index: Int, Track)
    /// The queue was replaced, appended to or edited.
    case queue(length: Int)
    /// A track or a catalog call failed.
    case error(String)
    /// The audio output went away (why) or came back.
    case outputLost(String)
    case outputBack
    /// Volume or mute changed.
    case volume(Int, muted: Bool)
    /// Repeat or shuffle changed.
    case modes(repeat: RepeatMode, shuffle: Bool)
    /// Where the current track is (sent every second when asked for).
    case position(ms: Int, durationMs: Int?)

    /// The event's JSON object.
    public var json: JSONValue {
        func number(_ n: Int) -> JSONValue { .number(Double(n)) }
        switch self {
        case .state(let state, let index):
            return .object(["event": .string("state"), "state": .string(state.rawValue), "index": index.map(number) ?? .null])
        case .track(let index, let track):
            return .object(["event": .string("track"), "index": number(index), "track": (try? JSONValue(encoding: track)) ?? .null])
        case .queue(let length): return .object(["event": .string("queue"), "length": number(length)])
        case .error(let message): return .object(["event": .string("error"), "message": .string(message)])
        case .outputLost(let why): return .object(["event": .string("output"), "state": .string("lost"), "reason": .string(why)])
        case .outputBack: return .object(["event": .string("output"), "state": .string("ok")])
        case .volume(let level, let muted):
            return .object(["event": .string("volume"), "volume": number(level), "muted": .bool(muted)])
        case .modes(let mode, let shuffle):
            return .object(["event": .string("modes"), "repeat": .string(mode.rawValue), "shuffle": .bool(shuffle)])
        case .position(let ms, let duration):
            return .object(["event": .string("position"), "positionMs": number(ms), "durationMs": duration.map(number) ?? .null])
        }
    }
}
