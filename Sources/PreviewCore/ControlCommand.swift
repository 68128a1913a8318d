import Foundation

/// The commands of the control protocol, parsed and checked. `docs/PROTOCOL.md` shows each on the wire.
public enum ControlCommand: Equatable, Sendable {
    /// Protocol and daemon versions.
    case hello
    /// Search the catalog, replace the queue with the results and play from the first playable one.
    case search(term: String, limit: Int)
    /// Play `index`, or resume / start when nil.
    case play(index: Int?)
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
    /// State, position and the current track.
    case status
    /// The queue with its current and failed items.
    case queue

    /// Default and bounds of `search.limit` (Apple's: 1–200, default 50).
    public static let searchLimits = (default: 50, range: 1...200)

    /// Parses `request`, or explains what is wrong with it.
    public init(_ request: ControlRequest) throws(ControlError) {
        let args = request.args ?? [:]
        switch request.cmd {
        case "hello": self = .hello
        case "search":
            guard let term = args["term"]?.stringValue, !term.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ControlError(.badArgument, "search needs a non-empty \"term\" string")
            }
            guard term.utf8.count <= 1000 else { throw ControlError(.badArgument, "search term is too long") }
            let limit = try Self.int(args, "limit") ?? Self.searchLimits.default
            guard Self.searchLimits.range.contains(limit) else {
                throw ControlError(.badArgument, "limit must be between 1 and 200 (got \(limit))")
            }
            self = .search(term: term, limit: limit)
        case "play":
            let index = try Self.int(args, "index")
            if let index, index < 0 { throw ControlError(.badArgument, "index must be 0 or more (got \(index))") }
            self = .play(index: index)
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
        case "shuffle":
            guard let on = args["on"]?.boolValue else { throw ControlError(.badArgument, "shuffle needs \"on\": true or false") }
            self = .setShuffle(on)
        case "status": self = .status
        case "queue": self = .queue
        default:
            throw ControlError(.unknownCommand, "unknown command \"\(String(request.cmd.prefix(64)))\"")
        }
    }

    /// This command as a request with `id`.
    public func request(id: Int?) -> ControlRequest {
        switch self {
        case .hello: return ControlRequest(id: id, cmd: "hello")
        case .search(let term, let limit):
            return ControlRequest(id: id, cmd: "search", args: ["term": .string(term), "limit": .number(Double(limit))])
        case .play(let index):
            return ControlRequest(id: id, cmd: "play", args: index.map { ["index": .number(Double($0))] })
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
        case .status: return ControlRequest(id: id, cmd: "status")
        case .queue: return ControlRequest(id: id, cmd: "queue")
        }
    }

    private static func int(_ args: [String: JSONValue], _ key: String) throws(ControlError) -> Int? {
        guard let value = args[key], value != .null else { return nil }
        guard let n = value.intValue else { throw ControlError(.badArgument, "\"\(key)\" must be an integer") }
        return n
    }
}

/// Where a seek goes.
public enum SeekTarget: Equatable, Sendable {
    /// To this position in the track.
    case absolute(ms: Int)
    /// By this much from the current position (negative: back).
    case relative(ms: Int)

    /// Parses previewctl's forms: `SECONDS`, `M:SS`, `+N`, `-N` (N in seconds, fractions allowed).
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let sign = trimmed.first else { return nil }
        let relative = sign == "+" || sign == "-"
        let body = relative ? String(trimmed.dropFirst()) : trimmed
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let last = Double(parts.last!), last >= 0, last.isFinite else { return nil }
        var seconds = last
        if parts.count == 2 {
            guard let minutes = Int(parts[0]), minutes >= 0, last < 60 else { return nil }
            seconds += Double(minutes * 60)
        }
        guard seconds < 86_400 else { return nil }
        let ms = Int((seconds * 1000).rounded())
        self = relative ? .relative(ms: sign == "-" ? -ms : ms) : .absolute(ms: ms)
    }
}

/// A volume command: to a level, or by a step.
public enum VolumeChange: Equatable, Sendable {
    /// To this level, 0–100.
    case set(Int)
    /// By this much (negative: down); the result is clamped to 0–100.
    case by(Int)

    /// Parses previewctl's forms: `N`, `+N`, `-N`.
    public init?(_ text: String) {
        guard let first = text.first, let n = Int(text.dropFirst(first == "+" || first == "-" ? 1 : 0)), n <= 100 else { return nil }
        switch first {
        case "+": self = .by(n)
        case "-": self = .by(-n)
        default: self = .set(n)
        }
    }
}
