import PreviewCore

/// The hold's retry timers on the engine loop (`NetworkHold`, `RetrySchedule`): one per timer the
/// core names, armed and disarmed by its effects, each firing once as a `.retryDue` event. While
/// nothing waits, none runs, so the loop sleeps.
extension Player {
    /// Runs `timer` for `ms`, replacing it if it runs.
    func armRetry(_ timer: NetworkHold.Timer, afterMs ms: Int) {
        disarmRetry(timer)
        retryTimers[timer] = loop.after(Double(ms) / 1000) { [self] in
            assumeIsolated { player in
                player.retryTimers[timer] = nil
                guard !player.isShutDown else { return }
                player.run(player.core.handle(.retryDue(timer)))
            }
        }
    }

    /// Stops `timer` if it runs.
    func disarmRetry(_ timer: NetworkHold.Timer) {
        if let id = retryTimers.removeValue(forKey: timer) { loop.cancel(id) }
    }

    /// Stops every retry timer (shutdown).
    func disarmAllRetries() {
        for id in retryTimers.values { loop.cancel(id) }
        retryTimers = [:]
    }

    /// `trouble` of the current load, with "others answer" widened to the whole wait: a host that
    /// answered at any time since the first try of the track playback waits at failed (a search,
    /// artwork, another preview) shows the network is there and only this host is in trouble.
    func sinceTheWaitBegan(_ trouble: NetworkTrouble, slot id: PlayerCore.SlotID) -> NetworkTrouble {
        guard let slot = core.current, slot.id == id else { return trouble }
        let now = MonotonicClock.nanoseconds()
        if core.hold.waiting?.item != slot.item || waitBegan?.item != slot.item { waitBegan = (slot.item, now) }
        var widened = trouble
        if let since = waitBegan?.at, fetcher.http.answers.othersAnswered(since: since, besides: trouble.host) { widened.othersAnswer = true }
        return widened
    }

    /// How a slot's track is named in the log: "track 4 (Title)", numbered from 1.
    func slotName(_ id: PlayerCore.SlotID) -> String {
        guard let item = core.slot(id)?.item else { return "slot \(id)" }
        return core.trackName(item)
    }
}
