/// Carrying out the transport's actions on the loads, and keeping the window around the current
/// track in line after every change: the prefetched neighbours, the downloads, the gapless
/// follower, the heads and the artwork (`+Heads`, `+Artwork`) and the next page of a search.
extension PlayerCore {
    /// Carries out `actions`, the transport having moved to `next`. A load or a stop changes what
    /// the playhead holds where it comes in the list (what comes before it sees the transport as
    /// it was: only the queue, which it edits); any other step keeps the load, at once.
    mutating func carryOut(_ actions: [Transport.Action], movingTo next: Transport, into effects: inout [Effect]) {
        if !actions.contains(where: Self.changesLoad) { playhead.move(to: next) }
        for action in actions {
            switch action {
            case .load(let item, let startMs): load(item, startMs: startMs, on: next, into: &effects)
            case .startOutput(let paused):
                guard let slot = current else { continue }
                output.play(slot.id)
                let track = queue[id: slot.item]?.track
                chooseGain(slot.id, followsGaplessly: false, into: &effects)
                effects.append(.play(slot.id, paused: paused, title: track?.trackName, artist: track?.artistName))
                // Announced before its gain was decided (a cold start): the gain is news.
                if announcedItem == slot.item, let position, let report = loudnessReport(item: slot.item) {
                    effects.append(.notify(.loudness(index: position, report, id: slot.item)))
                }
                if !transport.outputLost { lastError = nil }
            case .pauseOutput: effects.append(.pauseOutput)
            case .resumeOutput: effects.append(.resumeOutput)
            case .stopOutput:
                effects.append(.stopOutput)
                output.play(nil)
                releaseFading(into: &effects)
                window.dropNeighbours(into: &effects)
                if let slot = current { effects.append(.cancelSlot(slot.id)) }
                playhead.rest(next)
                window.keepDownloads([], into: &effects)
            case .markFailed(let item, let message): markFailed(item, message, neighbour: false, into: &effects)
            case .consume(let item):
                queue.remove(id: item)
                effects.append(.notify(.queue(length: queue.count, version: queue.version)))
                followUps.append(.queueEdited(successor: nil))   // the order forgets it
            }
        }
        while !followUps.isEmpty {
            let next = followUps.removeFirst()
            try? feed(next, into: &effects)
        }
    }

    /// The actions after which the transport holds another load, or none.
    private static func changesLoad(_ action: Transport.Action) -> Bool {
        switch action {
        case .load, .stopOutput: return true
        case .startOutput, .pauseOutput, .resumeOutput, .markFailed, .consume: return false
        }
    }

    /// Makes `item` current from `startMs` on `transport` (which loads it): adopts its prefetched
    /// slot when that starts at the top and is fresh (or is what the output already plays), else
    /// starts a new decoding. Loading the item that was current again (a seek, a restart) is told
    /// as a jump.
    private mutating func load(_ item: Int, startMs: Int, on transport: Transport, into effects: inout [Effect]) {
        let previous = current
        // The transport loads only playable items, and a playable item has a preview to fetch.
        guard let url = queue[id: item]?.track.fetchablePreviewURL else { fatalError("load of item \(item), which has no preview") }
        let slot = open(item, url: url, startMs: startMs, replacing: previous, into: &effects)
        playhead.load(slot, on: transport)
        output.moved(toMs: startMs)   // while the output is away, the new load is where the sound goes on
        if let previous, previous.id != slot.id, previous.id != fading?.id { effects.append(.cancelSlot(previous.id)) }
        if previous?.item == item, let position { effects.append(.notify(.seeked(index: position, ms: startMs, id: item))) }
    }

    /// The load of `item` from `startMs`: its neighbour's slot or its head's, decoded on to the end,
    /// or a new decoding; a seek or a reconnect keeps what `previous` knew of the track.
    mutating func open(_ item: Int, url: String, startMs: Int, replacing previous: Slot?, into effects: inout [Effect]) -> Slot {
        if startMs == 0, let slot = window.takeNeighbour(item, url: url, outputPlaying: outputSlot) ?? adoptHead(url, item: item, into: &effects) {
            effects.append(.decodeWhole(slot.id))
            if slot.hasAudio { followUps.append(.trackReady) }
            return slot
        }
        want(url, item: item, into: &effects)
        var slot = window.newSlot(item, url: url, startMs: startMs)
        // A seek or a reconnect keeps the track's length (status never loses it while the new
        // decoder opens) and its gain: a listener never hears it change within a track.
        if let previous, previous.item == item, previous.url == url {
            slot.durationMs = previous.durationMs
            if let gain = previous.gain, !previous.gainIsProvisional { slot.gain = gain }
        }
        effects.append(.startSlot(slot, depthMs: nil))
        return slot
    }

    /// After every change: brings the neighbours, the downloads, the follower, the artwork and the
    /// paging in line with the transport, and forgets measurements of previews no longer held.
    mutating func settle(into effects: inout [Effect]) {
        updatePrefetch(into: &effects)
        updateHeads(into: &effects)
        let downloads = downloads
        normalizer.retain { downloads[$0] != nil }
        updateArtwork(into: &effects)
        if settings.autopage, paging == .available, let position, position >= queue.count - 2 {
            paging = .fetching
            effects.append(.fetchNextPage)
        }
        settleRadio(into: &effects)
    }

    /// Tells subscribers what the command did to the current track and the state, after it settled.
    mutating func announce(since before: (PlaybackState, Int?), into effects: inout [Effect]) {
        if transport.item != announcedItem {
            announcedItem = transport.item
            artwork.announce(nil)
            if let item = transport.item, let position, let entry = queue[id: item] {
                effects.append(.notify(.track(index: position, id: item, entry.track, loudness: loudnessReport(item: item))))
                if let url = currentArtworkURL, let path = artworkPaths[url] {
                    artwork.announce(path)
                    effects.append(.notify(.artwork(index: position, path: path, id: transport.item)))
                }
            }
        }
        if before != (transport.playbackState, position) {
            effects.append(.notify(.state(transport.playbackState, index: position, id: transport.item)))
        }
    }

    private mutating func updatePrefetch(into effects: inout [Effect]) {
        guard let item = transport.item, transport.isActive else {
            window.dropNeighbours(into: &effects)
            return
        }
        let wanted = neighbours(of: item)
        window.dropNeighbours(notIn: wanted, queue: queue, into: &effects)
        let keep = Set(wanted.keys.compactMap { queue[id: $0]?.track.fetchablePreviewURL } + [current?.url, fading?.url].compactMap { $0 })
        window.keepDownloads(keep, into: &effects)
        // Neighbours start only once the current track's download has ended, so they never take
        // bandwidth from the track being heard.
        let currentDone = current.map { !window.isArriving($0.url) } ?? true
        for i in wanted.keys.sorted(by: { (queue.position(ofID: $0) ?? 0) < (queue.position(ofID: $1) ?? 0) })
        where prefetched[i] == nil && currentDone && hold.waiting == nil && hold.mayPrefetch(i, listening: isListening) {
            guard let entry = queue[id: i], entry.isPlayable, let url = entry.track.fetchablePreviewURL else { continue }
            if let slot = adoptHead(url, item: i, into: &effects) {   // parked after its head already
                window.hold(slot)
                continue
            }
            want(url, item: i, into: &effects)
            let slot = window.newSlot(i, url: url, startMs: 0)
            window.hold(slot)
            effects.append(.startSlot(slot, depthMs: settings.depthMs))
        }
        updateFollower(into: &effects)
    }

    /// The items `next` and `prev` would reach, within the policy's reach (true: ahead).
    private func neighbours(of item: Int) -> [Int: Bool] {
        var wanted: [Int: Bool] = [:]
        var cursor: Int? = item
        for _ in 0..<settings.ahead {
            // `following`: under single the end stops, but `next` is still prefetched (no follower, though).
            guard let from = cursor, let up = from == item ? transport.following(in: queue)
                    : transport.order.after(from, in: queue, wrap: transport.repeatMode == .all) else { break }
            wanted[up] = true
            cursor = up
        }
        cursor = item
        for _ in 0..<settings.behind {
            guard let from = cursor, let back = transport.order.before(from, in: queue) else { break }
            if wanted[back] == nil { wanted[back] = false }
            cursor = back
        }
        return wanted
    }

    /// The slot that plays when the current one ends, handed to the output so it starts with no gap.
    /// It stays parked after its head until the output moves to it; under a crossfade it is decoded
    /// on at once (as far as its buffer goes, the crossfade's length and more), so the fade never
    /// waits for its decoder.
    private mutating func updateFollower(into effects: inout [Effect]) {
        let wanted: SlotID?
        switch transport.playbackState {
        // None while a page keeps the clock: the box never runs into the next track by itself.
        case .playing, .paused: wanted = pageClock.kept ? nil : transport.upcoming(in: queue).flatMap { prefetched[$0]?.id }
        default: wanted = nil
        }
        guard wanted != follower, !transport.outputLost else { return }
        window.follow(wanted)
        if let wanted {
            chooseGain(wanted, followsGaplessly: true, into: &effects)
            if crossfadeSeconds > 0 { effects.append(.decodeWhole(wanted)) }
        }
        effects.append(.follow(wanted))
    }

    /// Lets every neighbour go (chosen again when the window settles).
    mutating func dropNeighbours(into effects: inout [Effect]) { window.dropNeighbours(into: &effects) }

    // MARK: Downloads

    /// Makes sure `url` is downloading or downloaded; a failed download is tried again. A head's
    /// download goes on (a seek into a track whose head is held: its bytes are not fetched again).
    private mutating func want(_ url: String, item: Int, into effects: inout [Effect]) {
        if let head = takeHeadDownload(url, item: item, into: &effects) { effects.append(.cancelSlot(head.id)) }
        window.want(url, trackId: queue[id: item]?.track.trackId, into: &effects)
    }
}
