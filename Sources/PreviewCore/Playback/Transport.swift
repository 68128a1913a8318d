/// The transport state machine: a value type with no I/O. Each input returns the actions the engine
/// must carry out; the engine reports back with inputs that carry the `RequestID` of the load they
/// belong to, and inputs for a load that is no longer current are ignored.
public struct Transport: Equatable, Sendable {
    /// Where playback is. Each case holds exactly the data valid in it.
    public enum State: Equatable, Sendable {
        /// Nothing played yet.
        case idle
        /// Track `index` is loading under `request`; `autoplay` says whether it starts playing or paused.
        case loading(index: Int, request: RequestID, autoplay: Bool)
        /// Track `index` is sounding.
        case playing(index: Int, request: RequestID)
        /// Track `index` is loaded and corked.
        case paused(index: Int, request: RequestID)
        /// Stopped; `index` is where playback was (where `play` resumes), if anywhere.
        case stopped(index: Int?)
    }

    /// What the player asks or the engine reports.
    public enum Input: Equatable, Sendable {
        /// Play the track at `index`, or with nil: resume, or start at the current or first playable track.
        case play(index: Int?)
        case pause
        case resume
        case toggle
        case stop
        /// The next playable track.
        case next
        /// The previous playable track; at the first one, that track again from its start.
        case prev
        /// Move within the current track to `toMs` (the player clamps it to the track).
        case seek(toMs: Int)
        /// The queue was replaced; start at the first playable track from `start`, or with `play`
        /// false, stop and wait there.
        case queueReplaced(start: Int, play: Bool = true)
        /// The load `request` has decoded audio ready to write.
        case trackReady(RequestID)
        /// The load `request` failed (fetch, demux or decode); the message is for the user.
        case trackFailed(RequestID, String)
        /// The output has played all of the load `request`'s audio.
        case trackEnded(RequestID)
        /// Items were added at the end of the queue.
        case queueAppended
        /// Items were removed or moved: `map[old]` is each old index's new place, nil when removed.
        /// A removed current track is followed by the next one; a moved one keeps playing.
        case queueEdited(map: [Int?])
        /// The output ran dry while `request` was still arriving (a slow network).
        case underrun(RequestID)
        /// Audio of `request` flows again after an underrun.
        case refilled(RequestID)
        /// The audio output went away (server killed, sink removed).
        case outputLost
        /// The output is back; what was heard of the current track reached `positionMs`.
        case outputBack(positionMs: Int)
        /// What happens at the end of a track and of the queue.
        case setRepeat(RepeatMode)
        /// Shuffle the play order (the current track stays current), or go back to the queue's order.
        case setShuffle(Bool, seed: UInt64)
    }

    /// What the engine must do.
    public enum Action: Equatable, Sendable {
        /// Cancel any other load and fetch + open track `index` under `request`, decoding from `startMs`.
        case load(index: Int, request: RequestID, startMs: Int)
        /// Write the audio of `request` to the output, flushing what was there; corked when `paused`.
        case startOutput(request: RequestID, paused: Bool)
        /// Cork the output (position kept).
        case pauseOutput
        /// Uncork the output.
        case resumeOutput
        /// Flush and cork the output and drop every load.
        case stopOutput
        /// Mark queue item `index` failed with `message` (and tell subscribers).
        case markFailed(index: Int, message: String)
    }

    /// Why an input was refused; the state is unchanged.
    public enum Rejection: Error, Equatable, Sendable {
        /// The queue is empty.
        case emptyQueue
        /// `index` is not in the queue.
        case noSuchIndex(Int, count: Int)
        /// The item at `index` cannot be played (no preview, or it failed).
        case notPlayable(Int)
        /// Nothing is loaded that could be paused or resumed.
        case nothingToControl

        /// One line for the user.
        public var message: String {
            switch self {
            case .emptyQueue: return "the queue is empty"
            case .noSuchIndex(let i, let n): return "no track at index \(i) (the queue has \(n))"
            case .notPlayable(let i): return "track \(i) has no playable preview"
            case .nothingToControl: return "nothing is playing"
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
    private var lastRequest: UInt64 = 0
    private var seed: UInt64 = 0x5EED

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

    /// The queue index playback is at, if any.
    public var index: Int? {
        switch state {
        case .idle: return nil
        case .loading(let i, _, _), .playing(let i, _), .paused(let i, _): return i
        case .stopped(let i): return i
        }
    }

    /// The request whose audio is current, if a track is loading or loaded.
    public var currentRequest: RequestID? {
        switch state {
        case .loading(_, let r, _), .playing(_, let r), .paused(_, let r): return r
        case .idle, .stopped: return nil
        }
    }

    /// Applies `input` given the queue as it is now; returns the actions to carry out in order.
    public mutating func handle(_ input: Input, queue: PlayQueue) throws(Rejection) -> [Action] {
        if order.indices.count != queue.count, !isQueueChange(input) { order.extend(to: queue.count, seed: nextSeed()) }
        switch input {
        case .play(let requested):
            if let i = requested {
                try Self.check(i, in: queue)
                return load(i, autoplay: true)
            }
            switch state {
            case .paused, .loading: return try handle(.resume, queue: queue)
            case .playing: return []
            case .idle, .stopped(nil): return try start(from: order.indices.first ?? 0, queue: queue)
            case .stopped(let i?):
                if queue[safe: i]?.isPlayable == true { return load(i, autoplay: true) }
                return try start(from: i, queue: queue)
            }

        case .pause:
            switch state {
            case .playing(let i, let r): state = .paused(index: i, request: r); return [.pauseOutput]
            case .loading(let i, let r, _): state = .loading(index: i, request: r, autoplay: false); return []
            case .paused: return []
            case .idle, .stopped: throw .nothingToControl
            }

        case .resume:
            switch state {
            case .paused(let i, let r): state = .playing(index: i, request: r); return [.resumeOutput]
            case .loading(let i, let r, _): state = .loading(index: i, request: r, autoplay: true); return []
            case .playing: return []
            case .idle, .stopped: return try handle(.play(index: nil), queue: queue)
            }

        case .toggle:
            switch state {
            case .playing: return try handle(.pause, queue: queue)
            case .loading(_, _, true): return try handle(.pause, queue: queue)
            case .paused, .loading: return try handle(.resume, queue: queue)
            case .idle, .stopped: return try handle(.play(index: nil), queue: queue)
            }

        case .stop:
            switch state {
            case .idle: return []
            case .stopped: return []
            default: state = .stopped(index: index); return [.stopOutput]
            }

        case .next:
            guard !queue.isEmpty else { throw .emptyQueue }
            if let n = order.after(index, in: queue, wrap: repeatMode == .all) { return load(n, autoplay: true) }
            return stopAtEnd()

        case .prev:
            guard !queue.isEmpty else { throw .emptyQueue }
            if let p = previous(in: queue) { return load(p, autoplay: true) }
            return try start(from: order.indices.first ?? 0, queue: queue)

        case .seek(let ms):
            switch state {
            case .playing(let i, _): return load(i, autoplay: true, startMs: ms)
            case .paused(let i, _): return load(i, autoplay: false, startMs: ms)
            case .loading(let i, _, let autoplay): return load(i, autoplay: autoplay, startMs: ms)
            case .idle, .stopped: throw .nothingToControl
            }

        case .queueReplaced(let start, let play):
            let first = queue.firstPlayable(from: start)
            order = order.isShuffled ? .shuffled(count: queue.count, first: first, seed: nextSeed()) : PlayOrder(count: queue.count)
            if play, let i = first { return load(i, autoplay: true) }
            let wasActive = currentRequest != nil
            buffering = false
            state = queue.isEmpty ? .idle : .stopped(index: play ? nil : first)
            return wasActive ? [.stopOutput] : []

        case .trackReady(let r):
            guard case .loading(let i, r, let autoplay) = state else { return [] }
            state = autoplay ? .playing(index: i, request: r) : .paused(index: i, request: r)
            return [.startOutput(request: r, paused: !autoplay)]

        case .trackFailed(let r, let message):
            guard let i = index, currentRequest == r else { return [] }
            var marked = queue
            marked.markFailed(i, message: message)
            let failed: [Action] = [.markFailed(index: i, message: message)]
            if let n = order.after(i, in: marked, wrap: repeatMode == .all) { return failed + load(n, autoplay: true) }
            return failed + stopAtEnd()

        case .trackEnded(let r):
            guard case .playing(_, r) = state else { return [] }
            if let n = upcoming(in: queue) { return load(n, autoplay: true) }
            return stopAtEnd()

        case .queueAppended:
            order.extend(to: queue.count, seed: nextSeed())
            return []

        case .queueEdited(let map):
            order = order.remapped(map, count: queue.count)
            let moved = { (i: Int) -> Int? in map.indices.contains(i) ? map[i] : nil }
            switch state {
            case .idle: return []
            case .stopped(let i):
                state = queue.isEmpty ? .idle : .stopped(index: i.flatMap(moved))
                return []
            case .loading(let i, let r, let autoplay):
                if let j = moved(i) { state = .loading(index: j, request: r, autoplay: autoplay); return [] }
                return followRemoved(i, map: map, autoplay: autoplay, queue: queue)
            case .playing(let i, let r):
                if let j = moved(i) { state = .playing(index: j, request: r); return [] }
                return followRemoved(i, map: map, autoplay: true, queue: queue)
            case .paused(let i, let r):
                if let j = moved(i) { state = .paused(index: j, request: r); return [] }
                return followRemoved(i, map: map, autoplay: false, queue: queue)
            }

        case .underrun(let r):
            if currentRequest == r { buffering = true }
            return []

        case .refilled(let r):
            if currentRequest == r { buffering = false }
            return []

        case .outputLost:
            outputLost = true
            return []

        case .outputBack(let positionMs):
            guard outputLost else { return [] }
            outputLost = false
            switch state {   // the sound stopped at positionMs: go on from there
            case .playing(let i, _): return load(i, autoplay: true, startMs: positionMs)
            case .paused(let i, _): return load(i, autoplay: false, startMs: positionMs)
            case .idle, .loading, .stopped: return []
            }

        case .setRepeat(let mode):
            repeatMode = mode
            return []

        case .setShuffle(let on, let newSeed):
            seed = newSeed
            order = on ? .shuffled(count: queue.count, first: index, seed: nextSeed()) : PlayOrder(count: queue.count)
            return []
        }
    }

    /// What plays when the current track ends: the same one (repeat one), the next in play order,
    /// or the first again (repeat all); nil when playback stops. The player prefetches it.
    public func upcoming(in queue: PlayQueue) -> Int? {
        guard let i = index else { return order.after(nil, in: queue, wrap: false) }
        if repeatMode == .one, queue[safe: i]?.isPlayable == true { return i }
        return order.after(i, in: queue, wrap: repeatMode == .all)
    }

    /// What `prev` plays: the previous playable track in play order, else the current one again.
    public func previous(in queue: PlayQueue) -> Int? {
        let from = index ?? order.indices.first ?? 0
        if let p = order.before(from, in: queue) { return p }
        return queue[safe: from]?.isPlayable == true ? from : nil
    }

    private func isQueueChange(_ input: Input) -> Bool {
        switch input {
        case .queueReplaced, .queueAppended, .queueEdited, .setShuffle: return true
        default: return false
        }
    }

    private mutating func nextSeed() -> UInt64 {
        var rng = SplitMix64(seed: seed &+ lastRequest)
        seed = rng.next()
        return seed
    }

    private mutating func load(_ index: Int, autoplay: Bool, startMs: Int = 0) -> [Action] {
        buffering = false
        lastRequest += 1
        let r = RequestID(lastRequest)
        state = .loading(index: index, request: r, autoplay: autoplay)
        return [.load(index: index, request: r, startMs: max(0, startMs))]
    }

    private mutating func start(from index: Int, queue: PlayQueue) throws(Rejection) -> [Action] {
        guard !queue.isEmpty else { throw .emptyQueue }
        guard let i = order.first(from: index, in: queue) else { throw .notPlayable(index) }
        return load(i, autoplay: true)
    }

    /// The current track `old` was removed: the track that took its place plays (or waits, paused).
    private mutating func followRemoved(_ old: Int, map: [Int?], autoplay: Bool, queue: PlayQueue) -> [Action] {
        let place = map.prefix(old).compactMap { $0 }.count
        if let next = queue.firstPlayable(from: place) { return load(next, autoplay: autoplay) }
        buffering = false
        state = queue.isEmpty ? .idle : .stopped(index: nil)
        return [.stopOutput]
    }

    private mutating func stopAtEnd() -> [Action] {
        buffering = false
        let wasActive = currentRequest != nil
        state = .stopped(index: index)
        return wasActive ? [.stopOutput] : []
    }

    private static func check(_ i: Int, in queue: PlayQueue) throws(Rejection) {
        guard !queue.isEmpty else { throw .emptyQueue }
        guard queue.items.indices.contains(i) else { throw .noSuchIndex(i, count: queue.count) }
        guard queue.items[i].isPlayable else { throw .notPlayable(i) }
    }
}
