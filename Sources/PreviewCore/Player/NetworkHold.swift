/// Waiting for the network: the track playback holds at while its preview's host does not answer,
/// and the prefetches backing off, each on its timer (`RetrySchedule`). A value with no clock and
/// no I/O, in the manner of `Transport`: one `mutating func` per input, each returning the actions
/// `PlayerCore` carries out (arm or disarm a timer, try the waiting track again, give it up).
///
/// Timers are armed only while the listener listens (playing, or loading to play): paused or
/// stopped, nothing is tried and nothing wakes; listening again tries the waiting track at once.
public struct NetworkHold: Equatable, Sendable {
    /// The timers the engine runs for it (one each; arming one again replaces it).
    public enum Timer: Hashable, Sendable {
        /// The next try of the track playback waits on.
        case waiting
        /// The next try of a prefetch of queue item `item`.
        case prefetch(item: Int)
    }

    /// The track playback holds at.
    public struct Wait: Equatable, Sendable {
        /// Its queue item.
        public let item: Int
        /// The latest failure.
        public internal(set) var trouble: NetworkTrouble
        /// When the first failure came (milliseconds since 1970): "does not answer since".
        public let sinceUnixMs: Int
        /// Failed tries so far.
        public internal(set) var failures: Int
        /// Failed tries while other hosts answered (counted against `RetrySchedule.hostRetries`).
        public internal(set) var hostFailures: Int
        /// Its timer runs.
        public internal(set) var armed: Bool
    }

    /// A prefetch backing off.
    public struct Backoff: Equatable, Sendable {
        /// Failed tries so far.
        public internal(set) var failures: Int
        /// The latest failure's Retry-After.
        public internal(set) var retryAfterMs: Int?
        /// Where its timer is.
        public internal(set) var timer: TimerState
    }

    /// Where a prefetch's timer is.
    public enum TimerState: Equatable, Sendable {
        /// Running.
        case armed
        /// Fired: the prefetch may be tried (while the listener listens).
        case due
        /// Not running while the listener does not listen; armed again when they do.
        case parked
    }

    /// What `PlayerCore` must do.
    public enum Action: Equatable, Sendable {
        /// Run `timer` for `afterMs` (replacing it if it runs).
        case arm(Timer, afterMs: Int)
        /// Stop `timer`.
        case disarm(Timer)
        /// Try the waiting track again now.
        case retry(item: Int)
        /// Give the waiting track up: failed for now (its host fails while others answer).
        case giveUp(item: Int, NetworkTrouble)
    }

    /// The track playback holds at, if any.
    public private(set) var waiting: Wait?
    /// Prefetches backing off, by queue item.
    public private(set) var backoffs: [Int: Backoff] = [:]

    /// Nothing waits.
    public init() {}

    /// The current load of `item` failed for a transient reason: hold there and try again on the
    /// timer, or, when its host fails while others answer and its tries are spent, give it up.
    public mutating func currentFailed(_ item: Int, _ trouble: NetworkTrouble, listening: Bool) -> [Action] {
        var actions = forgetBackoff(item)
        let previous = waiting?.item == item ? waiting : nil
        if previous == nil, let other = waiting, other.armed { actions.append(.disarm(.waiting)) }
        var wait = Wait(item: item, trouble: trouble, sinceUnixMs: previous?.sinceUnixMs ?? trouble.atUnixMs,
                        failures: (previous?.failures ?? 0) + 1,
                        hostFailures: (previous?.hostFailures ?? 0) + (trouble.othersAnswer ? 1 : 0), armed: false)
        if trouble.othersAnswer, wait.hostFailures > RetrySchedule.hostRetries {
            if previous?.armed == true { actions.append(.disarm(.waiting)) }
            waiting = nil
            return actions + [.giveUp(item: item, trouble)]
        }
        if listening {
            wait.armed = true
            actions.append(.arm(.waiting, afterMs: RetrySchedule.delayMs(afterFailure: wait.failures, listenerWaits: true,
                                                                          retryAfterMs: trouble.retryAfterMs)))
        } else if previous?.armed == true {
            actions.append(.disarm(.waiting))
        }
        waiting = wait
        return actions
    }

    /// A prefetch of `item` failed for a transient reason: it backs off.
    public mutating func prefetchFailed(_ item: Int, _ trouble: NetworkTrouble, listening: Bool) -> [Action] {
        var backoff = backoffs[item] ?? Backoff(failures: 0, retryAfterMs: nil, timer: .parked)
        backoff.failures += 1
        backoff.retryAfterMs = trouble.retryAfterMs
        backoff.timer = listening ? .armed : .parked
        backoffs[item] = backoff
        return listening ? [arm(item, backoff)] : []
    }

    /// `timer` fired.
    public mutating func fired(_ timer: Timer) -> [Action] {
        switch timer {
        case .waiting:
            guard var wait = waiting, wait.armed else { return [] }
            wait.armed = false
            waiting = wait
            return [.retry(item: wait.item)]
        case .prefetch(let item):
            guard backoffs[item]?.timer == .armed else { return [] }
            backoffs[item]?.timer = .due
            return []
        }
    }

    /// The listener listens (playing, or loading to play) or no longer does (paused, stopped):
    /// timers stop while nobody listens; listening again tries the waiting track at once.
    public mutating func listening(_ on: Bool) -> [Action] {
        var actions: [Action] = []
        for item in backoffs.keys.sorted() {
            switch (on, backoffs[item]!.timer) {
            case (false, .armed):
                backoffs[item]!.timer = .parked
                actions.append(.disarm(.prefetch(item: item)))
            case (true, .parked):
                backoffs[item]!.timer = .armed
                actions.append(arm(item, backoffs[item]!))
            default: break
            }
        }
        guard var wait = waiting else { return actions }
        if on, !wait.armed {
            actions.append(.retry(item: wait.item))
        } else if !on, wait.armed {
            wait.armed = false
            waiting = wait
            actions.append(.disarm(.waiting))
        }
        return actions
    }

    /// The listener asked to try again (`retry`, `clearerror`): the waiting track now, and every
    /// prefetch as soon as it is wanted.
    public mutating func retryNow() -> [Action] {
        var actions: [Action] = backoffs.keys.sorted().compactMap { backoffs[$0]!.timer == .armed ? .disarm(.prefetch(item: $0)) : nil }
        backoffs = [:]
        guard var wait = waiting else { return actions }
        if wait.armed { actions.append(.disarm(.waiting)) }
        wait.armed = false
        waiting = wait
        return actions + [.retry(item: wait.item)]
    }

    /// The load of `item` has audio: whatever waited on it is over.
    public mutating func succeeded(_ item: Int) -> [Action] {
        var actions = forgetBackoff(item)
        if let wait = waiting, wait.item == item {
            if wait.armed { actions.append(.disarm(.waiting)) }
            waiting = nil
        }
        return actions
    }

    /// Playback is at `item` now (nil: nowhere, stopped): a wait for another track is over, and
    /// `item`'s prefetch backoff too (it is loaded as the current track, at once).
    public mutating func moved(to item: Int?) -> [Action] {
        var actions = item.map { forgetBackoff($0) } ?? []
        guard let wait = waiting, wait.item != item else { return actions }
        waiting = nil
        if wait.armed { actions.append(.disarm(.waiting)) }
        return actions
    }

    /// Forgets the backoffs of items not in `queued` (removed from the queue).
    public mutating func keep(_ queued: (Int) -> Bool) -> [Action] {
        var actions: [Action] = []
        for item in backoffs.keys.sorted() where !queued(item) { actions += forgetBackoff(item) }
        return actions
    }

    /// Whether a prefetch of `item` may start now: it is not backing off, or its timer has fired
    /// and the listener listens.
    public func mayPrefetch(_ item: Int, listening: Bool) -> Bool {
        guard let backoff = backoffs[item] else { return true }
        return backoff.timer == .due && listening
    }

    private mutating func forgetBackoff(_ item: Int) -> [Action] {
        guard let backoff = backoffs.removeValue(forKey: item) else { return [] }
        return backoff.timer == .armed ? [.disarm(.prefetch(item: item))] : []
    }

    private func arm(_ item: Int, _ backoff: Backoff) -> Action {
        .arm(.prefetch(item: item), afterMs: RetrySchedule.delayMs(afterFailure: backoff.failures, listenerWaits: false,
                                                                  retryAfterMs: backoff.retryAfterMs))
    }
}
