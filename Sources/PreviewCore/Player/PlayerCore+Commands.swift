/// Commands: what a front-end asks, decided here (validation, seeking, volume, queue edits, where
/// a catalog answer lands). Each returns the effects to carry out, events included.
extension PlayerCore {
    /// Applies a transport command (play, pause, next, repeat, …); refused ones change nothing.
    public mutating func apply(_ input: Transport.Input) throws(ControlError) -> [Effect] {
        try command { core, effects throws(ControlError) in try core.feed(input, into: &effects) }
    }

    /// Plays the item `ref` names (nil: resume, or start where playback was or at the top).
    /// An item may start at `startMs`, loaded `paused` there.
    /// Asking for a track that failed tries it anew, as MPD does: its mark goes first.
    public mutating func play(_ ref: QueueRef?, startMs: Int = 0, paused: Bool = false) throws(ControlError) -> [Effect] {
        let item = try ref.map { ref throws(ControlError) in try queue.id(of: ref) }
        return try command { core, effects throws(ControlError) in
            if let item, core.queue[id: item]?.failure != nil, core.queue[id: item]?.track.fetchablePreviewURL != nil {
                core.queue.clearFailure(item)
                effects.append(.notify(.queue(length: core.queue.count, version: core.queue.version)))
            }
            try core.feed(.play(item: item, startMs: startMs, paused: paused), into: &effects)
        }
    }

    /// Moves within the current track; `heardMs` is where it is now. Past the end is the next
    /// track, as when the track ends by itself.
    public mutating func seek(_ target: SeekTarget, heardMs: Int) throws(ControlError) -> [Effect] {
        guard transport.isActive else { throw ControlError(.rejected, Transport.Rejection.nothingToControl.message) }
        let targetMs: Int
        switch target {
        case .absolute(let ms): targetMs = ms
        case .relative(let delta): targetMs = heardMs + delta
        }
        if let duration = currentDurationMs, targetMs >= duration { return try apply(.next) }
        return try apply(.seek(toMs: max(0, targetMs)))
    }

    /// Sets or changes the volume (clamped to 0–100); nil changes nothing.
    public mutating func changeVolume(_ change: VolumeChange?) -> [Effect] {
        switch change {
        case .set(let level)?: return setVolume(min(100, max(0, level)), muted: muted)
        case .by(let delta)?: return setVolume(min(100, max(0, volume + delta)), muted: muted)
        case nil: return []
        }
    }

    /// Mutes or unmutes (nil toggles).
    public mutating func mute(_ on: Bool?) -> [Effect] {
        setVolume(volume, muted: on ?? !muted)
    }

    /// The longest crossfade (MPD takes any length; past a preview's half it would never apply).
    public static let crossfadeRange = 0...15

    /// Consecutive tracks overlap by `seconds` (0: the gapless join), from the next track's end.
    public mutating func setCrossfade(_ seconds: Int) throws(ControlError) -> [Effect] {
        guard Self.crossfadeRange.contains(seconds) else {
            throw ControlError(.badArgument, "crossfade must be 0–15 seconds (got \(seconds))")
        }
        guard output.setCrossfade(seconds) else { return [] }
        // The follower already handed over is decoded on, as one handed over from now on will be.
        let ahead: [Effect] = seconds > 0 ? follower.map { [.decodeWhole($0)] } ?? [] : []
        return [.setCrossfade(seconds)] + ahead + [.notify(.crossfade(seconds))]
    }

    private mutating func setVolume(_ level: Int, muted: Bool) -> [Effect] {
        guard output.setVolume(level, muted: muted) else { return [] }
        return [.setVolume(level, muted: silenced), .notify(.volume(level, muted: muted))]
    }

    /// Makes every output sound or play silently (nil toggles them as one); the clock runs either
    /// way, as MPD's one output disabled. The volume and mute are kept for when they sound again.
    public mutating func setOutput(enabled: Bool?) -> [Effect] {
        switchOutputs(enabled, id: nil)
    }

    /// Turns output `id` on or off (nil toggles it), MPD's `enableoutput N`; the others play on.
    public mutating func setOutput(id: Int, enabled: Bool?) throws(ControlError) -> [Effect] {
        guard output.switches.indices.contains(id) else { throw ControlError(.badArgument, "no output \(id) (there are \(output.switches.count))") }
        return switchOutputs(enabled, id: id)
    }

    /// The engine has `count` outputs (ids 0..<count), each on; called once, at start.
    public mutating func configureOutputs(_ count: Int) {
        output.configure(outputs: count)
    }

    private mutating func switchOutputs(_ enabled: Bool?, id: Int?) -> [Effect] {
        let wasSilenced = silenced
        let changed = output.setEnabled(enabled, id: id)
        guard !changed.isEmpty else { return [] }
        let volume: [Effect] = silenced != wasSilenced ? [.setVolume(self.volume, muted: silenced)] : []
        return [.setOutputs(output.switches)] + volume + changed.map { .notify(.outputEnabled(output.switches[$0], id: $0)) }
    }

    /// What the output is told: silent while muted or disabled.
    var silenced: Bool { output.silenced }

    /// Loudness normalisation per track or off, from now on: the tracks held take their new gain
    /// smoothly (the current one too).
    public mutating func setNormalization(_ mode: LoudnessNormalization.Mode) -> [Effect] {
        guard normalizer.setMode(mode) else { return [] }
        var effects: [Effect] = []
        for slot in [current].compactMap({ $0 }) + prefetched.values where slot.gain != nil {
            let gain = normalizer.regain(for: slot.url)
            resetGain(slot.id, gain)
            effects.append(.setGain(slot.id, gain, smoothly: true))
        }
        return effects + [.notify(.normalization(mode))]
    }

    /// Clears the last error and every item's failure (MPD's `clearerror`), so play and resume
    /// try them again.
    /// A hold's wait ends with a try now, and prefetches backing off are tried as soon as wanted
    /// (`previewctl retry`).
    public mutating func clearError() -> [Effect] {
        lastError = nil
        let cleared = edit { queue in
            queue.clearFailures()
            return nil
        }
        return cleared + ((try? command { core, effects in core.carryOut(core.hold.retryNow(), into: &effects) }) ?? [])
    }

    /// Swaps two items (MPD's `swap`, `swapid`); the current track plays on wherever it goes.
    public mutating func swap(_ a: QueueRef, _ b: QueueRef) throws(ControlError) -> [Effect] {
        let (x, y) = (try queue.id(of: a), try queue.id(of: b))
        return edit { queue in
            queue.swap(x, y)
            return nil
        }
    }

    /// Gives items priority `priority` (0–255, MPD's `prio`): a shuffle plays the higher sooner.
    public mutating func setPriority(_ priority: Int, of refs: [QueueRef]) throws(ControlError) -> [Effect] {
        guard (0...255).contains(priority) else { throw ControlError(.badArgument, "priority must be 0–255 (got \(priority))") }
        var ids: [Int] = []
        for ref in refs { ids.append(try queue.id(of: ref)) }
        return try command { core, effects throws(ControlError) in
            let version = core.queue.version
            core.queue.setPriority(priority, ids: ids)
            guard core.queue.version != version else { return }
            effects.append(.notify(.queue(length: core.queue.count, version: core.queue.version)))
            // Only a shuffled order reads priorities: in queue order the neighbours (and a fade's
            // follower) stay as they are.
            guard core.transport.order.isShuffled else { return }
            try core.feed(.prioritized, into: &effects)
            core.dropNeighbours(into: &effects)   // what plays next may have changed
        }
    }

    // MARK: The queue

    /// Removes the item `ref` names; a removed current track is followed by the one after it.
    public mutating func remove(_ ref: QueueRef) throws(ControlError) -> [Effect] {
        let id = try queue.id(of: ref)
        return edit { queue in
            let successor = queue.position(ofID: id).flatMap { queue[safe: $0 + 1]?.id }
            queue.remove(id: id)
            return successor
        }
    }

    /// Moves the item `from` names to where `to` names; the current track plays on wherever it goes.
    public mutating func move(_ from: QueueRef, to: QueueRef) throws(ControlError) -> [Effect] {
        let id = try queue.id(of: from)
        guard let target = queue.position(ofID: try queue.id(of: to)), target != queue.position(ofID: id) else { return [] }
        return edit { queue in
            queue.move(id: id, to: target)
            return nil
        }
    }

    /// Reorders the queue's items in `range` (all when nil) at random; the current track plays on
    /// wherever it goes.
    public mutating func shuffleQueue(_ range: Range<Int>?, seed: UInt64) throws(ControlError) -> [Effect] {
        if let range, range.lowerBound < 0 || range.upperBound > queue.count || range.isEmpty {
            throw ControlError(.badArgument, "no range \(range.lowerBound)..<\(range.upperBound) in the queue (it has \(queue.count))")
        }
        return edit { queue in
            queue.shuffle(range, seed: seed)
            return nil
        }
    }

    /// Empties the queue (and forgets the search `more` would continue).
    public mutating func clear() -> [Effect] {
        paging = .none
        return edit { queue in
            queue.removeAll()
            return nil
        }
    }

    /// The tracks of `results` that may be queued, and why the others may not (no preview, a
    /// refused URL, not a track): the filter every way into the queue passes.
    public func sortOut(_ results: [Track]) -> (playable: [Track], notQueued: [CatalogReport.NotQueued]) {
        var playable: [Track] = [], notQueued: [CatalogReport.NotQueued] = []
        for (i, track) in results.enumerated() {
            let local = track.previewUrl.flatMap { PreviewURLPolicy.localAddressReason($0, apiOrigin: settings.localOrigin) }
            if let reason = track.unplayableReason ?? local { notQueued.append(.init(result: i, reason: reason)) } else { playable.append(track) }
        }
        return (playable, notQueued)
    }

    /// Queues the playable ones of `results`: replacing the queue (`destination` nil), or inserted
    /// where `destination` says, in the queue as it stands when the answer arrives (never at a
    /// position computed before: other clients may have edited it meanwhile), as one change.
    /// `play`: start playing (an insert only when nothing plays). `morePages`: the answer is a
    /// search page another may follow (nil: leave paging as it is). `start`: replacing, play
    /// `results[start]` (a tap on a result: one change, no moment with an empty queue). Nothing
    /// playable leaves the queue unchanged.
    public mutating func place(_ results: [Track], at destination: InsertPosition?, play: Bool, morePages: Bool?,
                               start: Int? = nil) throws(ControlError) -> Placement {
        let (playable, notQueued) = sortOut(results)
        var placement = Placement(notQueued: notQueued)
        var startPosition: Int?
        if let start {
            guard destination == nil else { throw ControlError(.badArgument, "a result to play is given only when the queue is replaced") }
            guard results.indices.contains(start) else {
                throw ControlError(.badArgument, "no result \(start) to play (\(results.count) given)")
            }
            if let left = notQueued.first(where: { $0.result == start }) {
                throw ControlError(.rejected, "result \(start) cannot be played: \(left.reason)")
            }
            startPosition = start - notQueued.count { $0.result < start }
        }
        guard !playable.isEmpty else { return placement }
        if let destination {
            let index = try insertionIndex(destination)
            placement.firstIndex = index
            placement.effects = try command { core, effects throws(ControlError) in
                placement.ids = try core.queue.insert(playable, at: index)
                effects.append(.notify(.queue(length: core.queue.count, version: core.queue.version)))
                try? core.feed(.queueEdited(successor: nil, upNext: destination == .next ? placement.ids : []), into: &effects)
                if play, !core.transport.isActive, let first = placement.ids.first { try? core.feed(.play(item: first), into: &effects) }
            }
        } else {
            placement.firstIndex = 0
            placement.effects = replaceQueue(with: playable, play: play || startPosition != nil, startingAt: startPosition)
            placement.ids = queue.ids
        }
        if let morePages { paging = morePages ? .available : .none }   // it landed: `more` continues it
        return placement
    }

    /// The queue index `destination` names now: `next` is right after the current item (the
    /// front when there is none).
    func insertionIndex(_ destination: InsertPosition) throws(ControlError) -> Int {
        switch destination {
        case .end: return queue.count
        case .next: return position.map { $0 + 1 } ?? 0
        case .index(let index):
            guard (0...queue.count).contains(index) else {
                throw ControlError(.badArgument, "no position \(index) in the queue (it has \(queue.count); \(queue.count) is its end)")
            }
            return index
        }
    }

    /// Where a catalog answer landed.
    public struct Placement: Equatable, Sendable {
        /// Where its first queued track is, and the ids of those queued (none: nothing playable).
        public var firstIndex: Int?
        public var ids: [Int] = []
        /// The results left out, and why.
        public var notQueued: [CatalogReport.NotQueued] = []
        /// What to carry out.
        public var effects: [Effect] = []

        /// Nothing placed, with the results left out.
        public init(notQueued: [CatalogReport.NotQueued] = []) { self.notQueued = notQueued }
    }

    /// Replaces the queue with `tracks`; starts at the first playable one, or at `position`
    /// (or waits there, stopped).
    public mutating func replaceQueue(with tracks: [Track], play: Bool, startingAt position: Int? = nil) -> [Effect] {
        (try? command { core, effects in
            // The old queue's neighbours belong to other tracks now; the current slot plays on until
            // the transport replaces it (its download is kept: the new queue may start with it).
            core.dropNeighbours(into: &effects)
            core.window.keepDownloads(Set([core.current?.url].compactMap { $0 }), into: &effects)
            let downloads = core.downloads
            core.normalizer.retain { downloads[$0] != nil }
            core.queue.replaceAll(with: tracks)   // new ids; the counter goes on
            core.lastError = nil
            effects.append(.notify(.queue(length: core.queue.count, version: core.queue.version)))
            try? core.feed(.queueReplaced(play: play, first: position.flatMap { core.queue[safe: $0]?.id }), into: &effects)
        }) ?? []
    }

    /// The page `fetchNextPage` asked for arrived (`morePages`: another may follow) or failed.
    public mutating func pageEnded(morePages: Bool) {
        paging = morePages ? .available : .none
    }

    /// Edits the queue: `change` returns the item that takes the place of a removed current one.
    private mutating func edit(_ change: (inout PlayQueue) -> Int?) -> [Effect] {
        (try? command { core, effects in
            let version = core.queue.version
            let successor = change(&core.queue)
            guard core.queue.version != version else { return }
            effects.append(.notify(.queue(length: core.queue.count, version: core.queue.version)))
            core.dropNeighbours(into: &effects)   // chosen again after the edit
            try? core.feed(.queueEdited(successor: successor), into: &effects)
        }) ?? []
    }

    /// Runs one command: its effects, then the window brought in line and what subscribers are
    /// told of the current track and the state.
    mutating func command(_ body: (inout PlayerCore, inout [Effect]) throws(ControlError) -> Void) throws(ControlError) -> [Effect] {
        var effects: [Effect] = []
        let before = (transport.playbackState, position)
        let modes = transport.modes
        let held = (hold.waiting, isListening)
        try body(&self, &effects)
        countHeldEnd(into: &effects)
        reconcileHold(since: held, into: &effects)
        if transport.modes != modes { effects.append(.notify(.modes(transport.modes))) }
        settle(into: &effects)
        announce(since: before, into: &effects)
        return effects
    }

    /// Feeds the transport and carries out its actions; a refusal is the client's error.
    mutating func feed(_ input: Transport.Input, into effects: inout [Effect]) throws(ControlError) {
        var next = transport
        let actions: [Transport.Action]
        do {
            actions = try next.handle(input, queue: queue)
        } catch {
            throw ControlError(.rejected, error.message)
        }
        carryOut(actions, movingTo: next, into: &effects)
    }
}
