/// Waiting for the network (`NetworkHold`): a transient failure of the current load holds playback
/// at its track, tried again on a timer, and never marks it failed while no host answers; a
/// prefetch that fails so backs off. The hold follows the transport after every command and event
/// (`reconcileHold`), and subscribers hear when a wait begins, changes host or cause, and ends.
extension PlayerCore {
    /// The listener listens: playing, or loading to play (a paused or stopped player tries nothing).
    public var isListening: Bool {
        switch transport.state {
        case .playing: return true
        case .loading(_, let autoplay): return autoplay
        case .idle, .paused, .stopped: return false
        }
    }

    /// What `status` and the `waiting` event say of the wait, `waitedMs` after it began.
    public func waitingReport(waitedMs: Int = 0) -> NetworkWaitReport? {
        guard let wait = hold.waiting, let index = queue.position(ofID: wait.item) else { return nil }
        return NetworkWaitReport(wait, index: index, waitedMs: waitedMs)
    }

    /// A track as the listener sees it in messages: "track 4 (Title)", numbered from 1 as `[4/6]` is.
    public func trackName(_ item: Int) -> String {
        guard let position = queue.position(ofID: item) else { return "a track no longer queued" }
        guard let title = queue[id: item]?.track.trackName else { return "track \(position + 1)" }
        return "track \(position + 1) (\(title))"
    }

    /// Slot `id`'s download failed for a transient reason before any audio.
    mutating func unreachable(_ id: SlotID, _ trouble: NetworkTrouble, into effects: inout [Effect]) {
        if let slot = current, slot.id == id {
            playhead.updateCurrent { $0.phase = .failed }
            carryOut(hold.currentFailed(slot.item, trouble, listening: isListening), into: &effects)
        } else if let url = headURL(id) {
            headsState.fail(url, into: &effects)   // played, it is fetched whole
        } else if let item = window.neighbourFailed(id, afterMs: 0, into: &effects) {
            carryOut(hold.prefetchFailed(item, trouble, listening: isListening), into: &effects)
        }
    }

    /// Carries out the hold's actions.
    mutating func carryOut(_ actions: [NetworkHold.Action], into effects: inout [Effect]) {
        for action in actions {
            switch action {
            case .arm(let timer, let ms): effects.append(.armRetry(timer, afterMs: ms))
            case .disarm(let timer): effects.append(.disarmRetry(timer))
            case .retry(let item): retryCurrent(item, into: &effects)
            case .giveUp(let item, let trouble):
                guard current?.item == item else { continue }
                try? feed(.trackFailed("failed for now: " + trouble.sentence), into: &effects)
            }
        }
    }

    /// Tries the waiting track again: a new load from where the failed one would have started
    /// (its download let go and asked for anew).
    private mutating func retryCurrent(_ item: Int, into effects: inout [Effect]) {
        guard let failed = current, failed.item == item, failed.phase == .failed,
              let url = queue[id: item]?.track.fetchablePreviewURL else { return }
        window.dropDownload(url, into: &effects)
        let slot = open(item, url: url, startMs: failed.startMs, replacing: failed, into: &effects)
        playhead.load(slot, on: transport)
        if failed.id != fading?.id { effects.append(.cancelSlot(failed.id)) }   // a fade's old track goes when faded
    }

    /// After every command and event: a wait ends when playback is elsewhere or the track has
    /// audio, backoffs of items gone or prefetched are forgotten, timers follow whether the
    /// listener listens, and subscribers hear of a wait that began, changed or ended.
    mutating func reconcileHold(since before: (wait: NetworkHold.Wait?, listening: Bool), into effects: inout [Effect]) {
        carryOut(hold.moved(to: transport.isActive ? transport.item : nil), into: &effects)
        if let slot = current, slot.hasAudio { carryOut(hold.succeeded(slot.item), into: &effects) }
        for item in prefetched.keys.sorted() where prefetched[item]?.hasAudio == true && hold.backoffs[item] != nil {
            carryOut(hold.succeeded(item), into: &effects)
        }
        let queue = queue
        carryOut(hold.keep { queue.position(ofID: $0) != nil }, into: &effects)
        if isListening != before.listening { carryOut(hold.listening(isListening), into: &effects) }
        let now = hold.waiting
        guard now?.item != before.wait?.item || now?.trouble.host != before.wait?.trouble.host
                || now?.trouble.cause != before.wait?.trouble.cause || now?.trouble.isOutage != before.wait?.trouble.isOutage else { return }
        let report = waitingReport()
        if let report {
            lastError = report.message
        } else if let message = lastError, message.hasPrefix("waiting for the network: ") {
            lastError = nil
        }
        effects.append(.notify(.waiting(report)))
    }
}
