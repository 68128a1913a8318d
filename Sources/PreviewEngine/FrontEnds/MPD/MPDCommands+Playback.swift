import PreviewCore

extension MPDCommands {
    /// `play [POS]`: the item at POS, or resume / start (an empty queue: nothing, as MPD).
    static func play(_ call: MPDCall) async throws(MPDError) {
        if call.argument(0) == nil || call.argument(0) == "-1" {
            try await resumeOrStart(call)
        } else {
            let index = try call.int(0, in: 0...Int(UInt32.max))
            guard index < call.status().queueLength else { throw MPDError(.arg, "Bad song index") }
            _ = try await call.perform(.play(.index(index)))
        }
    }

    /// `playid [ID]`.
    static func playid(_ call: MPDCall) async throws(MPDError) {
        if call.argument(0) == nil || call.argument(0) == "-1" {
            try await resumeOrStart(call)
        } else {
            _ = try await call.perform(.play(.id(try queuedId(call, 0))))
        }
    }

    private static func resumeOrStart(_ call: MPDCall) async throws(MPDError) {
        let status = call.status()
        guard status.queueLength > 0 else { return }
        _ = try await call.perform(status.state == .paused ? .resume : .play(nil))
    }

    /// `pause [0|1]`: toggle without an argument; nothing while nothing plays (MPD's answer is OK).
    static func pause(_ call: MPDCall) async throws(MPDError) {
        let pausing = try call.argument(0).map { (_: String) throws(MPDError) in try call.bool(0) }
        guard isPlaying(call.status()) else { return }
        _ = try await call.perform(pausing.map { $0 ? .pause : .resume } ?? .toggle)
    }

    static func stop(_ call: MPDCall) async throws(MPDError) { _ = try await call.perform(.stop) }

    /// `next`, `previous`: MPD's `Not playing` (55) while stopped.
    static func next(_ call: MPDCall) async throws(MPDError) {
        guard isPlaying(call.status()) else { throw MPDError(.playerSync, "Not playing") }
        _ = try await call.perform(.next)
    }

    static func previous(_ call: MPDCall) async throws(MPDError) {
        guard isPlaying(call.status()) else { throw MPDError(.playerSync, "Not playing") }
        _ = try await call.perform(.prev)
    }

    /// `seek POS TIME`: to TIME in the item at POS (played first if it is not the current one).
    static func seek(_ call: MPDCall) async throws(MPDError) {
        let index = try call.int(0, in: 0...Int(UInt32.max))
        let ms = try call.milliseconds(1)
        guard index < call.status().queueLength else { throw MPDError(.arg, "Bad song index") }
        if call.status().index != index { _ = try await call.perform(.play(.index(index))) }
        _ = try await call.perform(.seek(.absolute(ms: max(0, ms))))
    }

    /// `seekid ID TIME`.
    static func seekid(_ call: MPDCall) async throws(MPDError) {
        let id = try queuedId(call, 0)
        let ms = try call.milliseconds(1)
        if call.status().id != id { _ = try await call.perform(.play(.id(id))) }
        _ = try await call.perform(.seek(.absolute(ms: max(0, ms))))
    }

    /// `seekcur TIME`: absolute, or relative with a sign; `Not playing` while stopped.
    static func seekcur(_ call: MPDCall) async throws(MPDError) {
        let text = call.argument(0) ?? ""
        let ms = try call.milliseconds(0)
        guard isPlaying(call.status()) else { throw MPDError(.playerSync, "Not playing") }
        let relative = text.hasPrefix("+") || text.hasPrefix("-")
        _ = try await call.perform(.seek(relative ? .relative(ms: ms) : .absolute(ms: max(0, ms))))
    }

    /// A song is current, playing or paused (MPD's player is not stopped).
    private static func isPlaying(_ status: StatusReport) -> Bool {
        status.state == .playing || status.state == .paused || status.state == .loading
    }

    /// Argument `i` as the id of a queue item: MPD's `No such song` (50) when there is none.
    static func queuedId(_ call: MPDCall, _ i: Int) throws(MPDError) -> Int {
        let id = try call.int(i, in: 0...Int(UInt32.max))
        guard call.engine.queue().items.contains(where: { $0.id == id }) else { throw MPDError(.noExist, "No such song") }
        return id
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
        default: throw MPDError(.arg, "Unrecognized single mode, expected 0, 1, or oneshot")
        }
        if mode == .off, call.status().repeat == .one { _ = try await call.perform(.setRepeat(.all)) }
        _ = try await call.perform(.setSingle(mode))
    }

    /// `consume 0|1`.
    static func consume(_ call: MPDCall) async throws(MPDError) {
        _ = try await call.perform(.setConsume(try call.bool(0)))
    }
}
