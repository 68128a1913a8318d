/// Radio as the player core keeps it: off by default; when on, a batch is asked for when the queue
/// is about to end (`PlayerCore+Radio`). Between batches it remembers the quick skips counted
/// against each lead, the leads it called lately, the tracks it queued lately, and why it paused.
public struct RadioState: Equatable, Sendable {
    /// Where radio is between two batches.
    public enum Phase: Equatable, Sendable {
        /// Ready: a batch is asked for at the next end.
        case idle
        /// A batch is being chosen (`fetchRadio` was asked for).
        case asking
        /// The catalog could not answer: nothing more until the queue ends or changes at its end
        /// (the last item's id when it failed), or the next track plays (the one playing when it
        /// failed: a short outage costs one try, not the rest of the session).
        case held(lastItem: Int?, playing: Int?)
        /// A batch found nothing new even in the genre's chart: radio says so and stops until the
        /// listener adds to the queue's end or turns it on again.
        case exhausted(lastItem: Int?)
    }

    /// The listener turned it on.
    public internal(set) var on = false
    public internal(set) var phase = Phase.idle
    /// Why radio is not adding now, for `status` (nil: nothing to say).
    public internal(set) var note: String?
    /// Quick skips (within `quickSkipMs`) counted against each lead key.
    public internal(set) var skips: [String: Int] = [:]
    /// Lead keys called in recent batches, oldest first (at most `recentCalls`).
    public internal(set) var recentlyCalled: [String] = []
    /// Track ids radio queued lately, oldest first (at most `recentPicks`): never picked again soon.
    public internal(set) var recentPicks: [Int] = []
    /// Batches asked for since start.
    public internal(set) var batches = 0

    /// A skip this early in a radio track counts against its lead.
    public static let quickSkipMs = 10_000
    /// How many previews of the history a pick must not be among.
    public static let historyWindow = 500
    static let recentCalls = 24
    static let recentPicks = 1_000

    public init() {}

    /// A batch ended with `result`; `lastItem`: the queue's last item now; `playing`: the current one.
    mutating func ended(_ result: RadioPicker.Result, lastItem: Int?, playing: Int?) {
        recentlyCalled = Array((recentlyCalled.filter { !result.called.contains($0) } + result.called).suffix(Self.recentCalls))
        recentPicks = Array((recentPicks + result.picks.compactMap(\.track.trackId)).suffix(Self.recentPicks))
        switch result.outcome {
        case .found:
            phase = .idle
            note = nil
        case .unavailable(let why):
            phase = .held(lastItem: lastItem, playing: playing)
            note = "radio: the catalog did not answer (\(why)); trying again at the next end"
        case .nothingNew(let genre):
            phase = .exhausted(lastItem: lastItem)
            note = "radio: nothing new found" + (genre.map { ", even in the \($0) chart" } ?? "") + "; stopped until the queue changes"
        case .noSeeds:
            phase = .exhausted(lastItem: lastItem)
            note = "radio: nothing played or marked to start from; stopped until the queue changes"
        }
    }

    /// Counts a quick skip against `key`.
    mutating func skipped(_ key: String) {
        skips[key, default: 0] += 1
    }

    /// Restores the skips saved across a restart.
    mutating func restore(skips saved: [String: Int]) {
        skips = saved.filter { $0.value > 0 }
    }
}
