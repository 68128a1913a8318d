/// The player's decisions as a value with no I/O, in the swift-nio and librespot manner: it owns the
/// queue, the transport, the slot table (which decoding is current, which neighbours are prefetched,
/// which one the output follows gaplessly), the downloads wanted, the durations learned and the
/// position kept across an output loss. Commands and engine events go in; the effects the engine
/// must carry out come out, in order. Engine events name the slot they concern, and events of a
/// slot that is no longer held are ignored, so late events cannot disturb anything.
public struct PlayerCore: Equatable, Sendable {
    /// Identifies one decoding of one track.
    public typealias SlotID = UInt64

    /// How far ahead and behind to prefetch, and how much of a neighbour to decode before parking it.
    public struct Policy: Equatable, Sendable {
        /// Upcoming tracks prefetched.
        public var ahead: Int
        /// Previous tracks prefetched.
        public var behind: Int
        /// Milliseconds of a neighbour decoded before its decoder parks.
        public var headMs: Int

        /// A policy prefetching `ahead` and `behind` tracks, each decoded `headMs` deep.
        public init(ahead: Int = 1, behind: Int = 1, headMs: Int = 250) {
            self.ahead = ahead
            self.behind = behind
            self.headMs = headMs
        }
    }

    /// One decoding: the current track's, or a prefetched neighbour's.
    public struct Slot: Equatable, Sendable {
        /// Unique for the life of the core.
        public let id: SlotID
        /// The queue index it decodes (follows queue edits).
        public var index: Int
        /// The preview it decodes.
        public let url: String
        /// Where in the track its audio starts.
        public let startMs: Int
        /// How far its decoder has come.
        public var phase: Phase
        /// The output has started reading it (it followed the previous track gaplessly).
        public var heard = false

        /// How far a slot's decoder has come.
        public enum Phase: Equatable, Sendable { case decoding, ready, finished, failed }

        /// Audio is in its buffer (or it finished).
        public var hasAudio: Bool { phase == .ready || phase == .finished }
    }

    /// Where a download is.
    public enum Download: Equatable, Sendable { case arriving, complete, failed }

    /// What the engine reports.
    public enum Event: Equatable, Sendable {
        /// The slot's decoder: audio is ready (`containerMs`: the container's duration, if stated).
        case ready(SlotID, containerMs: Int?)
        /// The slot's decoder parked after its head.
        case parked(SlotID)
        /// The slot's decoder decoded everything: `ms` of audio from its start.
        case finished(SlotID, ms: Int)
        /// The slot's decoder failed after `playedMs` of good audio (0: none); the message is for the user.
        case failed(SlotID, String, afterMs: Int)
        /// The output played every frame of the slot.
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
    }

    /// What the engine must do, in order.
    public enum Effect: Equatable, Sendable {
        /// Download `url` into memory (once per URL; slots share it).
        case startDownload(url: String)
        /// Stop downloading `url` and let its bytes go.
        case cancelDownload(url: String)
        /// Start a decoder for the slot over its URL's download: the whole track, or only `headMs` then park.
        case startSlot(Slot, headMs: Int?)
        /// Continue a parked slot's decoding to the end (it became current).
        case decodeWhole(SlotID)
        /// Stop the slot's decoder and let its audio go.
        case cancelSlot(SlotID)
        /// Play the slot's audio now (flushing what else was playing), corked when `paused`.
        case play(SlotID, paused: Bool)
        /// Hand the output the slot to follow the current one without a gap (nil: none).
        case follow(SlotID?)
        /// Cork or uncork the output.
        case pauseOutput, resumeOutput
        /// Flush and cork the output.
        case stopOutput
        /// Queue item `index` failed (`neighbour`: while it was being prefetched); tell the listener.
        case trackFailed(index: Int, message: String, neighbour: Bool)
    }

    /// The queue.
    public private(set) var queue = PlayQueue()
    /// Where playback is.
    public private(set) var transport = Transport()
    /// The slot serving `transport.currentRequest`.
    public private(set) var current: Slot?
    /// Neighbours decoded ahead of need, by queue index.
    public private(set) var prefetched: [Int: Slot] = [:]
    /// The prefetched slot handed to the output to follow the current one.
    public private(set) var follower: SlotID?
    /// Downloads held, by URL.
    public private(set) var downloads: [String: Download] = [:]
    /// Real durations learned from decoders, by slot.
    public private(set) var durations: [SlotID: Int] = [:]
    /// Where the sound stopped when the output went away, while it is away.
    public private(set) var heardAtLossMs: Int?
    /// The slot the output is playing (set by `play` and by the output moving on by itself).
    public private(set) var outputSlot: SlotID?
    public let policy: Policy
    private var lastSlot: SlotID = 0
    private var followUps: [Transport.Input] = []

    /// An empty, idle core.
    public init(policy: Policy = Policy()) { self.policy = policy }

    /// The current track's duration, once known.
    public var currentDurationMs: Int? { current.flatMap { durations[$0.id] } }

    // MARK: Commands

    /// Applies a transport command (play, pause, next, seek, repeat, …); rejected ones change nothing.
    public mutating func apply(_ input: Transport.Input) throws(Transport.Rejection) -> [Effect] {
        var effects: [Effect] = []
        let actions = try transport.handle(input, queue: queue)
        carryOut(actions, into: &effects)
        settle(into: &effects)
        return effects
    }

    /// Replaces the queue with `tracks`; starts at the first playable one (or waits there, stopped).
    public mutating func replaceQueue(with tracks: [Track], play: Bool) -> [Effect] {
        var effects: [Effect] = []
        // The old queue's neighbours belong to other tracks now; the current slot plays on until
        // the transport replaces it (its download is kept: the new queue may start with it).
        dropNeighbours(into: &effects)
        for url in downloads.keys.sorted() where url != current?.url { effects.append(.cancelDownload(url: url)) }
        downloads = downloads.filter { $0.key == current?.url }
        queue.replaceAll(with: tracks)   // new ids; the counter goes on
        current?.index = -1
        carryOut((try? transport.handle(.queueReplaced(start: 0, play: play), queue: queue)) ?? [], into: &effects)
        settle(into: &effects)
        return effects
    }

    /// Appends `tracks`; starts playing the first of them when asked and nothing plays.
    public mutating func append(_ tracks: [Track], play: Bool) throws(ControlError) -> [Effect] {
        let first = queue.count
        try queue.append(tracks)
        var effects: [Effect] = []
        carryOut((try? transport.handle(.queueAppended, queue: queue)) ?? [], into: &effects)
        if play, transport.currentRequest == nil {
            carryOut((try? transport.handle(.play(index: first), queue: queue)) ?? [], into: &effects)
        }
        settle(into: &effects)
        return effects
    }

    /// Removes, moves or clears queue items: `change` edits the queue and returns where each old
    /// index went. The current track keeps playing where it went (or the next one follows it).
    public mutating func edit(_ change: (inout PlayQueue) -> [Int?]) -> [Effect] {
        let map = change(&queue)
        var effects: [Effect] = []
        dropNeighbours(into: &effects)   // chosen again after the edit
        if let slot = current { current?.index = map.indices.contains(slot.index) ? map[slot.index] ?? -1 : -1 }
        carryOut((try? transport.handle(.queueEdited(map: map), queue: queue)) ?? [], into: &effects)
        settle(into: &effects)
        return effects
    }

    // MARK: Engine events

    /// Takes in what the engine reports.
    public mutating func handle(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .ready(let id, let containerMs):
            record(id, .ready)
            if durations[id] == nil, let containerMs, isHeld(id) { durations[id] = containerMs }
            if let request = transport.currentRequest, current?.id == id { feed(.trackReady(request), into: &effects) }
        case .parked(let id):
            record(id, .ready)
        case .finished(let id, let ms):
            record(id, .finished)
            if let slot = slot(id) { durations[id] = slot.startMs + ms }
        case .failed(let id, let message, let afterMs):
            decoderFailed(id, message, afterMs: afterMs, into: &effects)
        case .drained(let id):
            if let request = transport.currentRequest, current?.id == id { feed(.trackEnded(request), into: &effects) }
        case .started(let id):
            outputSlot = id
            if let index = prefetched.first(where: { $0.value.id == id })?.key { prefetched[index]?.heard = true }
            if follower == id { follower = nil }
        case .underrun(let id):
            if let request = transport.currentRequest, current?.id == id { feed(.underrun(request), into: &effects) }
        case .refilled(let id):
            if let request = transport.currentRequest, current?.id == id { feed(.refilled(request), into: &effects) }
        case .outputLost(_, let heardMs):
            heardAtLossMs = (current?.startMs ?? 0) + heardMs
            follower = nil
            outputSlot = nil
            feed(.outputLost, into: &effects)
        case .outputBack:
            let position = heardAtLossMs ?? 0
            heardAtLossMs = nil
            feed(.outputBack(positionMs: position), into: &effects)
        case .downloadEnded(let url, let complete):
            if downloads[url] != nil { downloads[url] = complete ? .complete : .failed }
        }
        settle(into: &effects)
        return effects
    }

    private mutating func decoderFailed(_ id: SlotID, _ message: String, afterMs: Int, into effects: inout [Effect]) {
        if let slot = current, slot.id == id {
            if afterMs > 0 {
                // Corrupt or cut off after good audio: what was decoded plays, then the track ends.
                current?.phase = .finished
                durations[id] = slot.startMs + afterMs
            } else {
                current?.phase = .failed
                if let request = transport.currentRequest { feed(.trackFailed(request, message), into: &effects) }
            }
        } else if let (index, slot) = prefetched.first(where: { $0.value.id == id }) {
            guard afterMs == 0 else { prefetched[index]?.phase = .finished; return }
            // A neighbour that cannot play is skipped before anyone asks for it; its slot (buffer,
            // download) is let go with it.
            prefetched[index] = nil
            effects.append(.cancelSlot(id))
            if follower == slot.id { follower = nil; effects.append(.follow(nil)) }
            markFailed(index, message, neighbour: true, into: &effects)
        }
    }

    // MARK: Carrying out the transport's actions

    private mutating func feed(_ input: Transport.Input, into effects: inout [Effect]) {
        carryOut((try? transport.handle(input, queue: queue)) ?? [], into: &effects)
    }

    private mutating func carryOut(_ actions: [Transport.Action], into effects: inout [Effect]) {
        for action in actions {
            switch action {
            case .load(let index, _, let startMs): load(index, startMs: startMs, into: &effects)
            case .startOutput(_, let paused):
                guard let slot = current else { continue }
                outputSlot = slot.id
                effects.append(.play(slot.id, paused: paused))
            case .pauseOutput: effects.append(.pauseOutput)
            case .resumeOutput: effects.append(.resumeOutput)
            case .stopOutput:
                effects.append(.stopOutput)
                outputSlot = nil
                dropNeighbours(into: &effects)
                if let slot = current { effects.append(.cancelSlot(slot.id)) }
                current = nil
                for url in downloads.keys { effects.append(.cancelDownload(url: url)) }
                downloads = [:]
            case .markFailed(let index, let message): markFailed(index, message, neighbour: false, into: &effects)
            }
        }
        while !followUps.isEmpty {
            let next = followUps.removeFirst()
            feed(next, into: &effects)
        }
    }

    /// Makes `index` current from `startMs`: adopts its prefetched slot when that starts at the top
    /// and is fresh (or is what the output already plays), else starts a new decoding.
    private mutating func load(_ index: Int, startMs: Int, into effects: inout [Effect]) {
        let previous = current
        current = nil
        defer { if let previous, previous.id != current?.id { effects.append(.cancelSlot(previous.id)) } }
        guard let url = queue[safe: index]?.track.fetchablePreviewURL else { return }
        if startMs == 0, let slot = prefetched[index], slot.phase != .failed, downloads[url] != .failed,
           !slot.heard || outputSlot == slot.id {
            prefetched[index] = nil
            current = slot
            effects.append(.decodeWhole(slot.id))
            if follower == slot.id { follower = nil }
            if slot.hasAudio, let request = transport.currentRequest { followUps.append(.trackReady(request)) }
            return
        }
        want(url, into: &effects)
        current = newSlot(index, url: url, startMs: startMs)
        effects.append(.startSlot(current!, headMs: nil))
    }

    private mutating func markFailed(_ index: Int, _ message: String, neighbour: Bool, into effects: inout [Effect]) {
        queue.markFailed(index, message: message)
        effects.append(.trackFailed(index: index, message: message, neighbour: neighbour))
    }

    // MARK: The prefetch window

    /// After every change: brings the neighbours, the downloads and the follower in line with the
    /// transport, and forgets durations of slots no longer held.
    private mutating func settle(into effects: inout [Effect]) {
        updatePrefetch(into: &effects)
        let held = Set(prefetched.values.map(\.id) + (current.map { [$0.id] } ?? []))
        durations = durations.filter { held.contains($0.key) }
    }

    private mutating func updatePrefetch(into effects: inout [Effect]) {
        guard let index = transport.index, transport.currentRequest != nil else {
            dropNeighbours(into: &effects)
            return
        }
        let wanted = neighbours(of: index)
        for (i, slot) in prefetched where wanted[i] == nil || queue[safe: i]?.track.fetchablePreviewURL != slot.url {
            effects.append(.cancelSlot(slot.id))
            prefetched[i] = nil
            if follower == slot.id { follower = nil; effects.append(.follow(nil)) }
        }
        let keep = Set(wanted.keys.compactMap { queue[safe: $0]?.track.fetchablePreviewURL } + (current.map { [$0.url] } ?? []))
        for url in downloads.keys.sorted() where !keep.contains(url) {
            effects.append(.cancelDownload(url: url))
            downloads[url] = nil
        }
        // Neighbours start only once the current track's download has ended, so they never take
        // bandwidth from the track being heard.
        let currentDone = current.map { downloads[$0.url] != .arriving } ?? true
        for i in wanted.keys.sorted() where prefetched[i] == nil && currentDone {
            guard let item = queue[safe: i], item.isPlayable, let url = item.track.fetchablePreviewURL else { continue }
            want(url, into: &effects)
            let slot = newSlot(i, url: url, startMs: 0)
            prefetched[i] = slot
            effects.append(.startSlot(slot, headMs: policy.headMs))
        }
        updateFollower(into: &effects)
    }

    /// The queue indices `next` and `prev` would reach, within the policy's reach.
    private func neighbours(of index: Int) -> [Int: Bool] {
        var wanted: [Int: Bool] = [:]
        var cursor: Int? = index
        for _ in 0..<policy.ahead {
            guard let from = cursor, let up = from == index ? transport.upcoming(in: queue)
                    : transport.order.after(from, in: queue, wrap: transport.repeatMode == .all) else { break }
            wanted[up] = true
            cursor = up
        }
        cursor = index
        for _ in 0..<policy.behind {
            guard let from = cursor, let back = transport.order.before(from, in: queue) else { break }
            if wanted[back] == nil { wanted[back] = false }
            cursor = back
        }
        return wanted
    }

    /// The slot that plays when the current one ends, handed to the output so it starts with no gap.
    /// It stays parked after its head until the output moves to it.
    private mutating func updateFollower(into effects: inout [Effect]) {
        let wanted: SlotID?
        switch transport.playbackState {
        case .playing, .paused: wanted = transport.upcoming(in: queue).flatMap { prefetched[$0]?.id }
        default: wanted = nil
        }
        guard wanted != follower, !transport.outputLost else { return }
        follower = wanted
        effects.append(.follow(wanted))
    }

    private mutating func dropNeighbours(into effects: inout [Effect]) {
        for slot in prefetched.values.sorted(by: { $0.index < $1.index }) { effects.append(.cancelSlot(slot.id)) }
        prefetched = [:]
        if follower != nil {
            follower = nil
            effects.append(.follow(nil))
        }
    }

    // MARK: Slots and downloads

    /// Makes sure `url` is downloading or downloaded; a failed download is tried again.
    private mutating func want(_ url: String, into effects: inout [Effect]) {
        switch downloads[url] {
        case .arriving?, .complete?: return
        case .failed?: effects.append(.cancelDownload(url: url))
        case nil: break
        }
        downloads[url] = .arriving
        effects.append(.startDownload(url: url))
    }

    private mutating func newSlot(_ index: Int, url: String, startMs: Int) -> Slot {
        lastSlot += 1
        return Slot(id: lastSlot, index: index, url: url, startMs: startMs, phase: .decoding)
    }

    private func slot(_ id: SlotID) -> Slot? {
        current?.id == id ? current : prefetched.values.first { $0.id == id }
    }

    private func isHeld(_ id: SlotID) -> Bool { slot(id) != nil }

    private mutating func record(_ id: SlotID, _ phase: Slot.Phase) {
        if current?.id == id {
            if current?.phase == .decoding || phase == .finished { current?.phase = phase }
        } else if let index = prefetched.first(where: { $0.value.id == id })?.key {
            if prefetched[index]?.phase == .decoding || phase == .finished { prefetched[index]?.phase = phase }
        }
    }
}
