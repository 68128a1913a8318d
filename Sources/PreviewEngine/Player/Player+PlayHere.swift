import PreviewCore

/// "Play here": a page of previewd-web plays the queue itself from previewd's own bytes, and is one
/// of previewd's outputs. previewd keeps the queue, the current track and the modes; while a page
/// holds the claim (`PageClaim`) its clock is the position previewd reports, a track's end in the
/// page advances previewd (the box's own end waits for it: `PlayerCore+PageClock`), and "here only"
/// silences the box's device outputs (their clocks running).
///
/// The seam to the outputs (two places, both here): `boxSilenced` (the box's device outputs are
/// silent while it is true, a stream output streaming on: `applyBoxSilence()`), and
/// `pageClockMs()` (the position `positionMs()` reports while the page keeps the clock).
extension Player {
    /// True while a page plays "here only": the box's device outputs are silent.
    var boxSilenced: Bool { playHere.claim?.silencesBox == true }

    /// The current track's position by the page's clock, while a page plays here and has reported it.
    func pageClockMs() -> Int? {
        guard let claim = playHere.claim, let item = core.transport.item else { return nil }
        return claim.clockMs(for: item, at: MonotonicClock.nanoseconds(), durationMs: core.currentDurationMs)
    }

    /// Carries out a page's `playhere`.
    func playHereCommand(_ command: PlayHereCommand) throws(ControlError) {
        switch command {
        case .claim(let page, let hereOnly):
            let before = playHere.claim
            playHere.claim = PageClaim(page: page, hereOnly: hereOnly)
            if before?.page == page, let report = before?.report { playHere.claim?.report = report }
            heardFromPage()
            applyBoxSilence()
            run(core.pageKeepsClock(true))
            hub?.publish(.playHere(PlayHereReport(playHere.claim!)))
        case .release(let page):
            guard playHere.claim?.page == page else { return }   // another page took over meanwhile: nothing to give back
            releasePage(pause: false)
        case .report(let page, let item, let positionMs, let playing):
            try ownClaim(page)
            heardFromPage()
            playHere.claim?.report = PageClaim.Report(item: item, positionMs: positionMs, playing: playing, at: MonotonicClock.nanoseconds())
            // The box's outputs follow the page's clock: moved to it when they drift apart (once a
            // track, after the page started its element), so the track ends where the page's ends.
            if playing, core.transport.item == item, core.transport.playbackState == .playing, playHere.resyncedItem != item,
               PageClaim.needsResync(box: boxPositionMs(), page: positionMs) {
                playHere.resyncedItem = item
                run(try core.seek(.absolute(ms: positionMs), heardMs: boxPositionMs()))
            }
        case .ended(let page, let item):
            try ownClaim(page)
            heardFromPage()
            // Every message names its queue item: an end of a track previewd has already left changes
            // nothing, nor one previewd waits on the network for (the page's element failed to fetch it).
            guard core.transport.item == item, core.hold.waiting?.item != item else { return }
            // A natural end (single stops, repeat one plays it again), once: a second `ended` for
            // the same item (repeat one began it again) finds the box's copy just begun.
            guard core.transport.playbackState == .playing,
                  core.pageClock.heldEnd != nil && core.pageClock.heldEnd == core.current?.id || boxPositionMs() >= PageClaim.resyncMs else { return }
            playHere.claim?.report = nil
            run(try core.apply(.trackEnded))
        case .failed(let page, let item):
            try ownClaim(page)
            heardFromPage()
            // No position guard here (the failure comes at a track's start), and one while paused too:
            // a failure is not an end that repeat one begins again.
            guard core.transport.item == item, core.hold.waiting?.item != item else { return }
            playHere.claim?.report = nil
            run(try core.apply(.trackFailed("the page that plays here could not play its preview")))
        }
    }

    private func ownClaim(_ page: String) throws(ControlError) {
        guard let claim = playHere.claim else { throw ControlError(.rejected, "no page plays here") }
        guard claim.page == page else { throw ControlError(.rejected, "another device plays here now") }
    }

    /// The page is gone or stopped playing here: the box's outputs sound again at the position the
    /// page reached (the box's own track is moved there) and its ends count again; `pause`: and
    /// playback pauses there.
    private func releasePage(pause: Bool) {
        let reached = pageClockMs()
        playHere.claim = nil
        if let timer = playHere.goneTimer { loop.cancel(timer) }
        playHere.goneTimer = nil
        releaseOwnDownloads()
        if pause, core.isListening { run((try? core.apply(.pause)) ?? []) }   // first: nothing of the box's copy is heard
        // Where the page was, unless it had reached the end: then the box's copy ends there too (a
        // natural end, below, not the `next` a seek past the end would be).
        if let reached, core.transport.item != nil, reached < core.currentDurationMs ?? .max {
            run((try? core.seek(.absolute(ms: reached), heardMs: positionMs())) ?? [])
        }
        run(core.pageKeepsClock(false))   // a box's end held for the page counts now, or paused, at `play`
        applyBoxSilence()
        hub?.publish(.playHere(nil))
    }

    /// Silences the box's device outputs as the claim says, or gives them back (the listener's own
    /// mute stays); a stream output keeps streaming.
    func applyBoxSilence() {
        if sequencer.silencesDevices { sequencer.silenceDevices(boxSilenced) } else { sequencer.setVolume(core.volume, muted: boxMuted(core.muted)) }
    }

    /// The mute a lone device (no output group) gets: the listener's, or the page's "here only".
    func boxMuted(_ muted: Bool) -> Bool { muted || (boxSilenced && !sequencer.silencesDevices) }

    /// The page said something (a report, an end, an audio request): it is not gone. A page that
    /// stays silent longer than a track (a locked phone still fetches each next track) is: then
    /// playback pauses at the position it reached, and the box's outputs are back, silent until a
    /// `play` — a listener who walked away with the phone does not want the speakers to start.
    /// Only while the listener listens: a page paused here says nothing, and is not gone (nor is
    /// previewd woken for it).
    func heardFromPage() {
        guard playHere.claim != nil else { return }
        playHere.lastHeard = MonotonicClock.nanoseconds()
        watchForAGonePage()
    }

    /// After every state change too: a resume from elsewhere starts the watch again.
    func watchForAGonePage() {
        guard playHere.claim != nil, playHere.goneTimer == nil, core.isListening else { return }
        armGoneTimer(goneCheckSeconds)
    }

    /// Seconds until the page, silent from now on, has been silent for longer than the limit (and a
    /// tenth of a second more): one wake-up a limit while it keeps talking, none while it is paused.
    private var goneCheckSeconds: Double {
        let now = MonotonicClock.nanoseconds()
        let silentMs = Int((now - min(now, playHere.lastHeard)) / 1_000_000)
        return Double(max(0, playHere.silenceLimitMs - silentMs)) / 1000 + 0.1
    }

    private func armGoneTimer(_ seconds: Double) {
        playHere.goneTimer = loop.after(seconds) { [unowned self] in
            assumeIsolated { player in
                player.playHere.goneTimer = nil
                guard player.playHere.claim != nil, !player.isShutDown, player.core.isListening else { return }
                let limit = player.playHere.silenceLimitMs
                if PageClaim.isGone(lastHeard: player.playHere.lastHeard, now: MonotonicClock.nanoseconds(), limitMs: limit) {
                    player.log(.info, "play here: the page said nothing for \(Double(limit) / 1000) s; paused, the box's outputs are back")
                    player.releasePage(pause: true)
                } else {
                    player.armGoneTimer(player.goneCheckSeconds)
                }
            }
        }
    }

    /// A chunk of queue item `item`'s preview, from `offset`, for previewd-web's audio path: from the
    /// download previewd holds (played, prefetched, a head — widened to the whole), else the disk
    /// cache, else fetched now under the same address rules as every preview. Answered as soon as
    /// bytes at `offset` are held and the preview's total size is known (a head's Content-Range
    /// total, a download's Content-Length): up to a chunk of what is there, with that size. Only
    /// where no total is known yet does it wait for the whole preview (or the length).
    func audioFile(item: Int, offset: Int) async throws -> ArtworkFileReport {
        guard let queued = core.queue[id: item] else { throw ControlError(.rejected, "no queue item \(item) (removed, or consumed)") }
        guard let url = queued.track.previewUrl else { throw ControlError(.rejected, "queue item \(item) has no preview") }
        heardFromPage()
        let download = heldDownload(url)
        let bytes = download.bytes
        if !bytes.isComplete, bytes.error == nil, downloads[url] === download { download.widen() }   // a head: the page plays it all
        await bytes.arrival(at: offset)   // bounded by the download's deadline; a cancelled request stops waiting
        if Task.isCancelled { throw ControlError(.offline, "the audio request was cancelled") }
        if let error = bytes.error { throw ControlError(.offline, "the preview could not be fetched: \(error)") }
        guard let size = bytes.knownLength else { throw ControlError(.internal, "the preview's size is unknown") }
        guard offset <= size else { throw ControlError(.badArgument, "offset \(offset) is past the preview's end (\(size) bytes)") }
        var chunk = [UInt8](repeating: 0, count: max(0, min(ArtworkFileReport.maxChunk, bytes.receivedCount - offset, size - offset)))
        if !chunk.isEmpty {
            _ = chunk.withUnsafeMutableBytes { buffer in bytes.read(into: buffer.baseAddress!, at: offset, maxLength: buffer.count) }
        }
        return ArtworkFileReport(mime: "audio/mp4", size: size, offset: offset, data: chunk)
    }

    /// The download of `url` previewd holds, or one started for the page alone (kept bounded).
    private func heldDownload(_ url: String) -> PreviewDownload {
        if let held = downloads[url] { return held }
        if let own = playHere.ownDownloads.first(where: { $0.url == url }) { return own.download }
        let download = PreviewDownload(url: url, fetcher: fetcher, limit: policy.maxPreviewBytes, cache: policy.cache)
        playHere.ownDownloads.append((url, download))
        while playHere.ownDownloads.count > PlayHereState.maxOwnDownloads {
            playHere.ownDownloads.removeFirst().download.cancel()
        }
        return download
    }

    private func releaseOwnDownloads() {
        playHere.ownDownloads.forEach { $0.download.cancel() }
        playHere.ownDownloads = []
    }
}
