import PreviewCore

extension MPDCommands {
    /// `play [POS]`: the item at POS, or resume / start.
    static func play(_ call: MPDCall) async throws(MPDError) {
        if call.argument(0) == nil || call.argument(0) == "-1" {
            _ = try await call.perform(call.status().state == .paused ? .resume : .play(nil))
        } else {
            _ = try await call.perform(.play(.index(try call.int(0, in: 0...Int.max))))
        }
    }

    /// `playid [ID]`.
    static func playid(_ call: MPDCall) async throws(MPDError) {
        if call.argument(0) == nil || call.argument(0) == "-1" {
            _ = try await call.perform(call.status().state == .paused ? .resume : .play(nil))
        } else {
            _ = try await call.perform(.play(.id(try call.int(0, in: 1...Int.max))))
        }
    }

    /// `pause [0|1]`: toggle without an argument.
    static func pause(_ call: MPDCall) async throws(MPDError) {
        if call.argument(0) == nil {
            _ = try await call.perform(.toggle)
        } else {
            _ = try await call.perform(try call.bool(0) ? .pause : .resume)
        }
    }

    static func stop(_ call: MPDCall) async throws(MPDError) { _ = try await call.perform(.stop) }
    static func next(_ call: MPDCall) async throws(MPDError) { _ = try await call.perform(.next) }
    static func previous(_ call: MPDCall) async throws(MPDError) { _ = try await call.perform(.prev) }

    /// `seek POS TIME`: to TIME in the item at POS (played first if it is not the current one).
    static func seek(_ call: MPDCall) async throws(MPDError) {
        let index = try call.int(0, in: 0...Int.max)
        let ms = try call.milliseconds(1)
        if call.status().index != index { _ = try await call.perform(.play(.index(index))) }
        _ = try await call.perform(.seek(.absolute(ms: max(0, ms))))
    }

    /// `seekid ID TIME`.
    static func seekid(_ call: MPDCall) async throws(MPDError) {
        let id = try call.int(0, in: 1...Int.max)
        let ms = try call.milliseconds(1)
        if call.status().id != id { _ = try await call.perform(.play(.id(id))) }
        _ = try await call.perform(.seek(.absolute(ms: max(0, ms))))
    }

    /// `seekcur TIME`: absolute, or relative with a sign.
    static func seekcur(_ call: MPDCall) async throws(MPDError) {
        let text = call.argument(0) ?? ""
        let ms = try call.milliseconds(0)
        let relative = text.hasPrefix("+") || text.hasPrefix("-")
        _ = try await call.perform(.seek(relative ? .relative(ms: ms) : .absolute(ms: max(0, ms))))
    }

    /// `setvol VOL`.
    static func setvol(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.volume(.set(try call.int(0, in: 0...100))))
    }

    /// `volume ±N` (deprecated in MPD, still sent by older clients).
    static func volume(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.volume(.by(try call.int(0, in: -100...100))))
    }

    /// `repeat 0|1`: MPD's repeat is previewd's repeat all; with single on it repeats one track.
    static func repeatMode(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.setRepeat(try call.bool(0) ? .all : .off))
    }

    /// `random 0|1`: the shuffled play order.
    static func random(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.setShuffle(try call.bool(0)))
    }

    /// `single 0|1|oneshot`.
    static func single(_ call: MPDCall) async throws(MPDError) {
        let mode: SingleMode
        switch call.argument(0) {
        case "0": mode = .off
        case "1": mode = .on
        case "oneshot": mode = .oneshot
        default: throw MPDError(.arg, "Boolean (0/1) or \"oneshot\" expected")
        }
        if mode == .off, call.status().repeat == .one { _ = try await call.perform(.setRepeat(.all)) }
        _ = try await call.perform(.setSingle(mode))
    }

    /// `consume 0|1`.
    static func consume(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.setConsume(try call.bool(0)))
    }
}
