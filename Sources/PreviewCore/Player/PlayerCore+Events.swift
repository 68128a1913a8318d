/// Engine events: decoders, downloads, the output, loudness measurements and artwork, each naming
/// the load or the preview it concerns.
extension PlayerCore {
    /// What the engine reports.
    public enum Event: Equatable, Sendable {
        /// The slot's decoder: audio is ready (`containerMs`: the container's duration, if stated).
        case ready(SlotID, containerMs: Int?)
        /// The slot's decoder parked after its head.
        case parked(SlotID)
        /// The slot's decoder decoded everything: `ms` of audio from its start.
        case finished(SlotID, ms: Int)
        /// The slot's decoder failed after `afterMs` of good audio (0: none); the message is for the user.
        case failed(SlotID, String, afterMs: Int)
        /// The slot's download failed for a transient reason before any audio (a host that does
        /// not answer, 5xx, 429): tried again on a timer, never marked failed while the network is away.
        case unreachable(SlotID, NetworkTrouble)
        /// A retry timer (`armRetry`) fired.
        case retryDue(NetworkHold.Timer)
        /// The output began to fade the slot out under its follower (a crossfade): it keeps reading
        /// it until `faded`; `drained` and `started` follow at once.
        case fading(SlotID)
        /// The output will not read the slot that faded out again.
        case faded(SlotID)
        /// The output played every frame of the slot (or began to fade it out under its follower).
        case drained(SlotID)
        /// The output moved on to the slot by itself (the follower), in the same stream.
        case started(SlotID)
        /// The output ran dry in the slot while its audio was still arriving, or flows again.
        case underrun(SlotID), refilled(SlotID)
        /// The output went away after `heardMs` of the current slot had been heard.
        case outputLost(String, heardMs: Int)
        /// The output is back.
        case outputBack
        /// The download of `url` ended: complete, or failed.
        case downloadEnded(url: String, complete: Bool)
        /// The range request of `url`'s head has ended; the rest waits until the head is played.
        case headFetched(url: String)
        /// The whole-clip loudness of the preview at `url` (nil: silent or undecodable).
        case measured(url: String, Loudness?)
        /// The loudness of the slot's first seconds (nil: too little had arrived).
        case estimated(SlotID, Loudness?)
        /// The artwork at `url` is cached at `path`.
        case artworkArrived(url: String, path: String)
    }

    /// Takes in what the engine reports.
    public mutating func handle(_ event: Event) -> [Effect] {
        (try? command { core, effects in core.take(event, into: &effects) }) ?? []
    }

    private mutating func take(_ event: Event, into effects: inout [Effect]) {
        switch event {
        case .ready(let id, let containerMs):
            if headsState.record(id, .ready, durationMs: containerMs) { return }
            record(id, .ready)
            update(id) { if $0.durationMs == nil, let containerMs { $0.durationMs = containerMs } }
            if current?.id == id { try? feed(.trackReady, into: &effects) }
        case .parked(let id):
            if headsState.record(id, .ready) { return }
            record(id, .ready)
        case .finished(let id, let ms):
            if headsState.record(id, .finished, durationMs: ms) { return }
            record(id, .finished)
            update(id) { $0.durationMs = $0.startMs + ms }
            if let slot = slot(id), queue.setPreviewLength(slot.startMs + ms, url: slot.url) {
                effects.append(.notify(.queue(length: queue.count, version: queue.version)))
            }
        case .failed(let id, let message, let afterMs):
            decoderFailed(id, message, afterMs: afterMs, into: &effects)
        case .unreachable(let id, let trouble):
            unreachable(id, trouble, into: &effects)
        case .retryDue(let timer):
            carryOut(hold.fired(timer), into: &effects)
        case .fading(let id):
            // The slot stays (its decoder writes the frames the fade reads) until the output is done.
            guard let slot = current, slot.id == id, fading?.id != id else { return }
            releaseFading(into: &effects)
            window.startFading(slot)
        case .faded(let id):
            if fading?.id == id { releaseFading(into: &effects) }
        case .drained(let id):
            boxEnded(id, into: &effects)
        case .started(let id):
            outputMovedOn(to: id, into: &effects)
            guard slot(id) != nil else { return }   // a load let go meanwhile
            output.play(id)
            window.started(id)
        case .underrun(let id):
            guard current?.id == id, !transport.buffering else { return }
            try? feed(.underrun, into: &effects)
            effects.append(.notify(.buffering(true)))
        case .refilled(let id):
            guard current?.id == id, transport.buffering else { return }
            try? feed(.refilled, into: &effects)
            effects.append(.notify(.buffering(false)))
        case .outputLost(let why, let heardMs):
            output.lost(heardMs: heardMs, startMs: current?.startMs ?? 0)
            releaseFading(into: &effects)
            window.follow(nil)   // the lost stream took it along; chosen again once the output is back
            lastError = why
            try? feed(.outputLost, into: &effects)
            effects.append(.notify(.outputLost(why)))
        case .outputBack:
            let position = output.back()
            lastError = nil
            effects.append(.setVolume(volume, muted: silenced))   // a disabled output stays silent
            try? feed(.outputBack(positionMs: position), into: &effects)
            effects.append(.notify(.outputBack))
        case .downloadEnded(let url, let complete):
            guard !window.downloadEnded(url, complete: complete), heads[url] != nil else { return }
            guard complete else { headsState.fail(url, into: &effects); return }
            headsState.arrivedWhole(url)
        case .headFetched(let url):
            headsState.fetched(url)
        case .measured(let url, let loudness):
            measured(url, loudness, into: &effects)
        case .estimated(let id, let loudness):
            estimated(id, loudness, into: &effects)
        case .artworkArrived(let url, let path):
            artworkArrived(url, path: path, into: &effects)
        }
    }

    private mutating func decoderFailed(_ id: SlotID, _ message: String, afterMs: Int, into effects: inout [Effect]) {
        if let slot = current, slot.id == id {
            if afterMs > 0 {
                // Corrupt or cut off after good audio: what was decoded plays, then the track ends.
                playhead.updateCurrent {
                    $0.phase = .finished
                    $0.durationMs = slot.startMs + afterMs
                }
            } else {
                playhead.updateCurrent { $0.phase = .failed }
                try? feed(.trackFailed(message), into: &effects)
            }
        } else if let url = headURL(id) {
            headsState.fail(url, into: &effects)   // too short to start from, or not audio: played, it is fetched whole
        } else if let item = window.neighbourFailed(id, afterMs: afterMs, into: &effects) {
            // A neighbour that cannot play is skipped before anyone asks for it; its slot (buffer,
            // download) is let go with it.
            markFailed(item, message, neighbour: true, into: &effects)
        }
    }

    /// Lets the slot that was fading out go (unless it is still current: its fade never took over).
    mutating func releaseFading(into effects: inout [Effect]) {
        window.releaseFading(current: current, into: &effects)
    }

    /// Marks queue item `item` failed and tells the listener.
    mutating func markFailed(_ item: Int, _ message: String, neighbour: Bool, into effects: inout [Effect]) {
        let line = "\(trackName(item)): \(message)"
        queue.markFailed(item, message: message)
        if !neighbour { lastError = line }
        effects.append(.logFailure("\(trackName(item)) failed\(neighbour ? " while prefetching" : ""): \(message)"))
        effects.append(.notify(.queue(length: queue.count, version: queue.version)))
        effects.append(.notify(.error(line)))
    }

    /// Changes the held slot with `id`: the current one or a neighbour.
    mutating func update(_ id: SlotID, _ change: (inout Slot) -> Void) {
        if current?.id == id {
            playhead.updateCurrent(change)
        } else {
            window.update(id, change)
        }
    }

    private mutating func record(_ id: SlotID, _ phase: Slot.Phase) {
        update(id) { if $0.phase == .decoding || phase == .finished { $0.phase = phase } }
    }
}
