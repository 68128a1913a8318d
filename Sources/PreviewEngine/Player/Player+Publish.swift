import PreviewCore

/// Telling subscribers what changed: after every command and engine event the player compares what
/// clients can see with what it last published, and publishes the differences as events.
extension Player {
    /// What subscribers have been told.
    struct Published: Equatable {
        var state = PlaybackState.idle
        var index: Int?
        /// The current queue item's id.
        var itemID: Int?
        var queueVersion = 0
        var volume = 100
        var muted = false
        var repeatMode = RepeatMode.off
        var shuffle = false
        var outputLost = false
        var loudness: LoudnessReport?
        /// The load of the current track: a new one for the same track is a jump (seek, restart).
        var request: RequestID?
        var artwork: String?
    }

    /// Publishes what changed since the last call; also starts autopaging when it is due and gives
    /// freed memory back after a track change.
    func publishChanges() {
        autopageIfNeeded()
        let transport = core.transport
        let index = transport.index
        let now = Published(state: transport.playbackState, index: index, itemID: index.flatMap { core.queue[safe: $0]?.id },
                            queueVersion: core.queue.version, volume: volume, muted: muted, repeatMode: transport.repeatMode,
                            shuffle: transport.order.isShuffled, outputLost: transport.outputLost,
                            loudness: index.flatMap { loudnessReport(index: $0) }, request: transport.currentRequest,
                            artwork: index.flatMap { artworkPath(index: $0) })
        let before = published
        guard now != before else { return }
        published = now
        if now.queueVersion != before.queueVersion { hub?.publish(.queue(length: core.queue.count, version: now.queueVersion)) }
        if now.itemID != before.itemID, let i = index, let item = core.queue[safe: i] {
            hub?.publish(.track(index: i, id: item.id, item.track, loudness: now.loudness))
        } else if now.loudness != before.loudness, let i = index, let loudness = now.loudness {
            hub?.publish(.loudness(index: i, loudness))
        }
        if now.index != before.index || now.queueVersion != before.queueVersion {
            MemoryTrim.afterRelease()
            fetchArtwork()
        }
        if let i = index, now.itemID == before.itemID, now.request != nil, before.request != nil,
           now.request != before.request {
            hub?.publish(.seeked(index: i, ms: positionMs()))
        }
        if let i = index, let path = now.artwork, path != before.artwork { hub?.publish(.artwork(index: i, path: path)) }
        if now.state != before.state || now.index != before.index { hub?.publish(.state(now.state, index: index)) }
        if now.volume != before.volume || now.muted != before.muted { hub?.publish(.volume(volume, muted: muted)) }
        if now.repeatMode != before.repeatMode || now.shuffle != before.shuffle {
            hub?.publish(.modes(repeat: now.repeatMode, shuffle: now.shuffle))
        }
        if now.outputLost != before.outputLost {
            hub?.publish(now.outputLost ? .outputLost(lastError ?? "audio output lost") : .outputBack)
        }
        updatePositionTicks()
    }

    /// A subscriber asked for position ticks (it gets one now), or the last one left.
    func positionInterestChanged() {
        if hub?.wantsPosition == true { publishPosition() }
        updatePositionTicks()
    }

    /// Runs the one-second position tick while a track plays and somebody wants it, and only then.
    func updatePositionTicks() {
        let wanted = hub?.wantsPosition == true && core.transport.playbackState == .playing
        if wanted, positionTimer == nil {
            positionTimer = loop.after(1) { [unowned self] in
                assumeIsolated { player in
                    player.positionTimer = nil
                    player.publishPosition()
                    player.updatePositionTicks()
                }
            }
        } else if !wanted, let timer = positionTimer {
            loop.cancel(timer)
            positionTimer = nil
        }
    }

    private func publishPosition() {
        hub?.publish(.position(ms: positionMs(), durationMs: core.currentDurationMs))
    }

    /// Tells subscribers about a failure (a track, a catalog call).
    func publishError(_ message: String) {
        hub?.publish(.error(message))
    }
}
