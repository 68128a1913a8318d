/// The transport state machine: a value type with no I/O. Each input returns the actions the engine
/// must carry out. It names queue items by id, so an edit of the queue never moves what it points
/// at. Engine reports (ready, failed, ended, underrun) concern the current load: `PlayerCore`
/// passes on only those of the slot it holds as current, so a late report of an old load never
/// reaches here.
public struct Transport: Equatable, Sendable {
    /// Where playback is. Each case holds exactly the data valid in it.
    public enum State: Equatable, Sendable {
        /// Nothing played yet.
        case idle
        /// Queue item `item` is loading; `autoplay` says whether it starts playing or paused.
        case loading(item: Int, autoplay: Bool)
        /// Queue item `item` is sounding.
        case playing(item: Int)
        /// Queue item `item` is loaded and corked.
        case paused(item: Int)
        /// Stopped; `item` is where playback was (where `play` resumes), if anywhere.
        case stopped(item: Int?)
    }

    /// What the player asks or the engine reports.
    public enum Input: Equatable, Sendable {
        /// Play queue item `item` from `startMs` (loaded corked when `paused`), or with nil:
        /// resume, or start at the current or first playable one.
        case play(item: Int?, startMs: Int = 0, paused: Bool = false)
        case pause
        case resume
        case toggle
        case stop
        /// The next playable track.
        case next
        /// The previous playable track; at the first one, that track again from its start.
        case prev
        /// Load the current track again from `toMs` (`PlayerCore` decides what a seek means).
        case seek(toMs: Int)
        /// The queue was replaced; start at its first playable track (or at item `first`, a tap
        /// on one of them), or with `play` false, stop and wait there.
        case queueReplaced(play: Bool = true, first: Int? = nil)
        /// The queue was edited (items added, removed or moved). When the current item is gone,
        /// `successor` (the item that followed it, if any is left) takes its place. `upNext`: items
        /// inserted to play next (a shuffled order takes them right after the current item).
        case queueEdited(successor: Int?, upNext: [Int] = [])
        /// The current load has decoded audio ready to write.
        case trackReady
        /// The current load failed (fetch, demux or decode); the message is for the user.
        case trackFailed(String)
        /// The output has played all of the current load's audio.
        case trackEnded
        /// The output ran dry while the current track was still arriving (a slow network).
        case underrun
        /// Audio flows again after an underrun.
        case refilled
        /// The audio output went away (server killed, sink removed).
        case outputLost
        /// The output is back; what was heard of the current track reached `positionMs`.
        case outputBack(positionMs: Int)
        /// What happens at the end of a track and of the queue.
        case setRepeat(RepeatMode)
        /// Shuffle the play order (the current track stays current), or go back to the queue's order.
        case setShuffle(Bool, seed: UInt64)
        /// Shuffle in exactly this order of the queue's item ids (each once).
        case setShuffleOrder([Int])
        /// Items' priorities changed: a shuffle plays the higher ones sooner.
        case prioritized
        /// Stop (or repeat) at the end of the current track.
        case setSingle(SingleMode)
        /// Remove each item from the queue once it has played.
        case setConsume(Bool)
    }

    /// What the engine must do.
    public enum Action: Equatable, Sendable {
        /// Cancel any other load and fetch + open queue item `item`, decoding from `startMs`.
        case load(item: Int, startMs: Int)
        /// Write the current load's audio to the output, flushing what was there; corked when `paused`.
        case startOutput(paused: Bool)
        /// Cork the output (position kept).
        case pauseOutput
        /// Uncork the output.
        case resumeOutput
        /// Flush and cork the output and drop every load.
        case stopOutput
        /// Mark queue item `item` failed with `message` (and tell subscribers).
        case markFailed(item: Int, message: String)
        /// Remove queue item `item`: it has played and consume is on.
        case consume(item: Int)
    }

    /// Why an input was refused; the state is unchanged.
    public enum Rejection: Error, Equatable, Sendable {
        /// The queue is empty.
        case emptyQueue
        /// No item with this id is queued.
        case noSuchItem(Int)
        /// The item at this position cannot be played (no preview, or it failed).
        case notPlayable(position: Int)
        /// Nothing is loaded that could be paused, resumed or sought in.
        case nothingToControl
        /// A shuffled order that is not every queue item once.
        case notAnOrder

        /// One line for the user.
        public var message: String {
            switch self {
            case .emptyQueue: return "the queue is empty"
            case .noSuchItem(let id): return "no track with id \(id) in the queue"
            case .notPlayable(let position): return "track \(position + 1) has no playable preview"
            case .nothingToControl: return "nothing is playing"
            case .notAnOrder: return "an order names every queue item's id once"
            }
        }
    }

    /// The current state.
    public private(set) var state: State = .idle
    /// End-of-track and end-of-queue behaviour.
    public private(set) var repeatMode = RepeatMode.off
    /// The order tracks play in.
    public private(set) var order = PlayOrder()
    /// True while the output is gone; the state is kept and resumes when it is back.
    public private(set) var outputLost = false
    /// True while the current track's audio is late (the output ran dry).
    public private(set) var buffering = false
    /// What happens at the end of the current track (MPD's `single`).
    public private(set) var single = SingleMode.off
    /// Items leave the queue once played (MPD's `consume`).
    public private(set) var consume = false
    /// Where the shuffle's random draws come from: with the same seed and the same inputs, the same
    /// order (a restore can give it back).
    public private(set) var seed: UInt64 = 0x5EED
    private var draws: UInt64 = 0

    /// A transport in `idle`.
    public init() {}

    /// The state as clients see it.
    public var playbackState: PlaybackState {
        switch state {
        case .idle: return .idle
        case .loading: return .loading
        case .playing: return .playing
        case .paused: return .paused
        case .stopped: return .stopped
        }
    }

    /// Repeat, shuffle, single and consume.
    public var modes: PlaybackModes {
        PlaybackModes(repeat: repeatMode, shuffle: order.isShuffled, single: single, consume: consume)
    }

    /// The queue item playback is at, if any.
    public var item: Int? {
        switch state {
        case .idle: return nil
        case .loading(let i, _), .playing(let i), .paused(let i): return i
        case .stopped(let i): return i
        }
    }

    /// True while a track is loading or loaded (it has a current load).
    public var isActive: Bool {
        switch state {
        case .loading, .playing, .paused: return true
        case .idle, .stopped: return false
        }
    }

    /// Applies `input` given the queue as it is now; returns the actions to carry out in order.
    public mutating func handle(_ input: Input, queue: PlayQueue) throws(Rejection) -> [Action] {
        switch input {
        case .play(let requested, let startMs, let paused):
            if let i = requested {
                try Self.check(i, in: queue)
                return leave(for: i) + load(i, autoplay: !paused, startMs: startMs)
            }
            switch state {
            case .paused, .loading: return try handle(.resume, queue: queue)
            case .playing: return []
            case .idle, .stopped(nil): return try start(from: nil, queue: queue)
            case .stopped(let i?):
                if queue.isPlayable(i) { return load(i, autoplay: true) }
                return try start(from: i, queue: queue)
            }

        case .pause:
            switch state {
            case .playing(let i): state = .paused(item: i); return [.pauseOutput]
            case .loading(let i, _): state = .loading(item: i, autoplay: false); return []
            case .paused: return []
            case .idle, .stopped: throw .nothingToControl
            }

        case .resume:
            switch state {
            case .paused(let i): state = .playing(item: i); return [.resumeOutput]
            case .loading(let i, _): state = .loading(item: i, autoplay: true); return []
            case .playing: return []
            case .idle, .stopped: return try handle(.play(item: nil), queue: queue)
            }

        case .toggle:
            switch state {
            case .playing, .loading(_, true): return try handle(.pause, queue: queue)
            case .paused, .loading: return try handle(.resume, queue: queue)
            case .idle, .stopped: return try handle(.play(item: nil), queue: queue)
            }

        case .stop:
            guard isActive else { return [] }
            state = .stopped(item: item)
            return [.stopOutput]

        case .next:
            guard !queue.isEmpty else { throw .emptyQueue }
            if let n = next(in: queue) { return leave(for: n) + load(n, autoplay: true) }
            return leave(for: nil) + stopAtEnd()

        case .prev:
            guard !queue.isEmpty else { throw .emptyQueue }
            if let p = previous(in: queue) { return leave(for: p) + load(p, autoplay: true) }
            return try start(from: nil, queue: queue)

        case .seek(let ms):
            switch state {
            case .playing(let i): return load(i, autoplay: true, startMs: ms)
            case .paused(let i): return load(i, autoplay: false, startMs: ms)
            case .loading(let i, let autoplay): return load(i, autoplay: autoplay, startMs: ms)
            case .idle, .stopped: throw .nothingToControl
            }

        case .queueReplaced(let play, let chosen):
            let first = chosen ?? queue.firstPlayable(from: 0)
            order = order.isShuffled ? .shuffled(queue, first: first, seed: nextSeed()) : PlayOrder()
            if play, let i = first { return load(i, autoplay: true) }
            let wasActive = isActive
            buffering = false
            state = queue.isEmpty ? .idle : .stopped(item: play ? nil : first)
            return wasActive ? [.stopOutput] : []

        case .queueEdited(let successor, let upNext):
            order.sync(with: queue, seed: nextSeed(), upNext: upNext, after: item)
            guard let current = item, queue.position(ofID: current) == nil else { return [] }
            switch state {
            case .loading(_, let autoplay): return follow(successor, autoplay: autoplay, queue: queue)
            case .playing: return follow(successor, autoplay: true, queue: queue)
            case .paused: return follow(successor, autoplay: false, queue: queue)
            case .idle, .stopped:
                state = queue.isEmpty ? .idle : .stopped(item: nil)
                return []
            }

        case .trackReady:
            guard case .loading(let i, let autoplay) = state else { return [] }
            state = autoplay ? .playing(item: i) : .paused(item: i)
            return [.startOutput(paused: !autoplay)]

        case .trackFailed(let message):
            guard isActive, let i = item else { return [] }
            var marked = queue
            marked.markFailed(i, message: message)
            let failed: [Action] = [.markFailed(item: i, message: message)]
            if let n = order.after(i, in: marked, wrap: repeatMode == .all) { return failed + load(n, autoplay: true) }
            return failed + stopAtEnd()

        case .trackEnded:
            guard case .playing = state else { return [] }
            defer { if single == .oneshot { single = .off } }   // once: it stopped or repeated
            if let n = upcoming(in: queue) { return leave(for: n) + load(n, autoplay: true) }
            return leave(for: nil) + stopAtEnd()

        case .underrun:
            if isActive { buffering = true }
            return []

        case .refilled:
            buffering = false
            return []

        case .outputLost:
            outputLost = true
            return []

        case .outputBack(let positionMs):
            guard outputLost else { return [] }
            outputLost = false
            switch state {   // the sound stopped at positionMs: go on from there
            case .playing(let i): return load(i, autoplay: true, startMs: positionMs)
            case .paused(let i): return load(i, autoplay: false, startMs: positionMs)
            case .idle, .loading, .stopped: return []
            }

        case .setRepeat(let mode):
            repeatMode = mode
            return []

        case .setShuffle(let on, let newSeed):
            seed = newSeed
            order = on ? .shuffled(queue, first: item, seed: nextSeed()) : PlayOrder()
            return []

        case .prioritized:
            order.prioritize(in: queue, after: item)
            return []

        case .setShuffleOrder(let ids):
            guard ids.count == queue.count, Set(ids).count == ids.count, ids.allSatisfy({ queue.position(ofID: $0) != nil }) else {
                throw .notAnOrder
            }
            order = PlayOrder(shuffle: ids)
            return []

        case .setSingle(let mode):
            single = mode
            return []

        case .setConsume(let on):
            consume = on
            return []
        }
    }

    /// What plays when the current track ends: the same one (repeat one, or single with repeat
    /// on), the next in play order, or the first again (repeat all); nil when playback stops (at
    /// the end, or single). Consume, as in MPD, never plays an item again: it has left the queue.
    /// The player prefetches it.
    public func upcoming(in queue: PlayQueue) -> Int? {
        guard let i = item else { return order.after(nil, in: queue, wrap: false) }
        let again = repeatMode == .one || (single != .off && repeatMode != .off)
        if again, !consume, queue.isPlayable(i) { return i }
        return single == .off ? next(in: queue) : nil
    }

    /// What plays after the current track in the ordinary course (status' `nextId`, MPD's
    /// `nextsong`): what its end leads to, or when single stops playback there, what `next` plays.
    public func following(in queue: PlayQueue) -> Int? {
        upcoming(in: queue) ?? (single == .off ? nil : next(in: queue))
    }

    /// What `prev` plays: the previous playable track in play order, else the current one again.
    public func previous(in queue: PlayQueue) -> Int? {
        guard let from = item ?? order.ids(in: queue).first else { return nil }
        return order.before(from, in: queue) ?? (queue.isPlayable(from) ? from : nil)
    }

    /// What `next` plays (nil: playback stops). Under consume the current item is not played
    /// again: it leaves the queue.
    public func next(in queue: PlayQueue) -> Int? {
        let n = order.after(item, in: queue, wrap: repeatMode == .all)
        return consume && n == item && isActive ? nil : n
    }

    private mutating func nextSeed() -> UInt64 {
        draws += 1
        var rng = SplitMix64(seed: seed &+ draws)
        seed = rng.next()
        return seed
    }

    /// Leaving the current item for `destination` (nil: playback stops): under consume it has
    /// played, so it leaves the queue once the next one starts.
    private func leave(for destination: Int?) -> [Action] {
        guard consume, isActive, let i = item, i != destination else { return [] }
        return [.consume(item: i)]
    }

    private mutating func load(_ item: Int, autoplay: Bool, startMs: Int = 0) -> [Action] {
        buffering = false
        state = .loading(item: item, autoplay: autoplay)
        return [.load(item: item, startMs: max(0, startMs))]
    }

    private mutating func start(from item: Int?, queue: PlayQueue) throws(Rejection) -> [Action] {
        guard !queue.isEmpty else { throw .emptyQueue }
        guard let i = order.first(from: item, in: queue) else {
            throw .notPlayable(position: item.flatMap(queue.position(ofID:)) ?? 0)
        }
        return load(i, autoplay: true)
    }

    /// The current item was removed: `successor` (or the first playable item after it) plays, or
    /// waits paused; with none, playback stops.
    private mutating func follow(_ successor: Int?, autoplay: Bool, queue: PlayQueue) -> [Action] {
        if let from = successor.flatMap(queue.position(ofID:)), let next = queue.firstPlayable(from: from) {
            return load(next, autoplay: autoplay)
        }
        buffering = false
        state = queue.isEmpty ? .idle : .stopped(item: nil)
        return [.stopOutput]
    }

    private mutating func stopAtEnd() -> [Action] {
        buffering = false
        let wasActive = isActive
        state = .stopped(item: item)
        return wasActive ? [.stopOutput] : []
    }

    private static func check(_ id: Int, in queue: PlayQueue) throws(Rejection) {
        guard !queue.isEmpty else { throw .emptyQueue }
        guard let position = queue.position(ofID: id) else { throw .noSuchItem(id) }
        guard queue.items[position].isPlayable else { throw .notPlayable(position: position) }
    }
}
