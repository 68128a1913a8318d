#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Feeding inputs to the transport and carrying out the actions it returns.
extension Player {
    /// Applies `input`, carries out its actions, then any inputs those raised; refreshes the prefetch window.
    func apply(_ input: Transport.Input) throws {
        let actions: [Transport.Action]
        do {
            actions = try transport.handle(input, queue: queue)
        } catch {
            throw ControlError(.rejected, error.message)
        }
        for action in actions { perform(action) }
        while !followUps.isEmpty {
            let next = followUps.removeFirst()
            for action in (try? transport.handle(next, queue: queue)) ?? [] { perform(action) }
        }
        updatePrefetch()
    }

    func perform(_ action: Transport.Action) {
        switch action {
        case .load(let index, let request, let startMs):
            load(index, startMs: startMs, request: request)
        case .startOutput(let request, let paused):
            guard let slot = current, transport.currentRequest == request else { return }
            let track = queue[safe: slot.index]?.track
            sink.play(slot.pcm, paused: paused)
            sink.setMetadata(title: track?.trackName, artist: track?.artistName)
            if !transport.outputLost { lastError = nil }
        case .pauseOutput: sink.pause()
        case .resumeOutput: sink.resume()
        case .stopOutput:
            sink.stop()
            dropSlots(keepingCurrent: false)
        case .markFailed(let index, let message):
            queue.markFailed(index, message: message)
            queueVersion += 1
            lastError = "track \(index): \(message)"
            publishError(lastError!)
            log(.warning, "track \(index) failed: \(message)")
        }
    }

    /// Makes `index` current from `startMs`: adopts the prefetched slot when it starts at the top,
    /// else decodes the track's download (kept, or started now) from `startMs`.
    private func load(_ index: Int, startMs: Int, request: RequestID) {
        let previous = current
        current = nil
        defer { if let previous, previous !== current { previous.cancel() } }
        guard let url = queue[safe: index]?.track.fetchablePreviewURL else { return }
        // A prefetched slot is fresh (nothing read yet) or already playing (the output moved to it
        // by itself at the end of the previous track).
        if startMs == 0, let slot = prefetched[index], !isFailed(slot),
           slot.pcm.consumedFrames == 0 || sink.currentFeed == ObjectIdentifier(slot.pcm) {
            prefetched[index] = nil
            current = slot
            slot.decodeWhole()
            if enqueued === slot { enqueued = nil }
            log(.debug, "loading \(index) from the prefetched slot \(request)")
            if slot.hasAudio { followUps.append(.trackReady(request)) }
            return
        }
        let download = downloadFor(index, url: url)
        log(.info, "loading \(index) at \(startMs) ms: \(TerminalText.sanitized(queue.items[index].track.displayName)) \(request)")
        current = makeSlot(index, startMs: startMs, download: download)
    }

    private func isFailed(_ slot: PreviewSlot) -> Bool {
        if case .failed = slot.phase { return true }
        return slot.download.hasFailed && !slot.download.bytes.isComplete
    }

    /// The download of `index`: the one held if it is of `url` and has not failed, else a new one.
    func downloadFor(_ index: Int, url: String) -> PreviewDownload {
        if let held = downloads[index], held.url == url, !held.hasFailed { return held }
        downloads[index]?.cancel()
        let download = PreviewDownload(url: url, fetcher: fetcher, limit: policy.maxPreviewBytes, cache: policy.cache)
        downloads[index] = download
        let events = eventSink
        download.bytes.onComplete { events.yield(.downloadComplete(url: url)) }
        return download
    }

    /// A new slot decoding `download` from `startMs` (only its head when `headMs` is given),
    /// reporting through the player's event stream.
    func makeSlot(_ index: Int, startMs: Int, download: PreviewDownload, headMs: Int? = nil) -> PreviewSlot {
        nextSlotID += 1
        let events = eventSink
        let label = queue[safe: index]?.track.trackId.map { "track \($0)" } ?? "queue item \(index)"
        return PreviewSlot(id: nextSlotID, index: index, startMs: startMs, download: download, policy: policy,
                           format: sink.format, label: label, headMs: headMs) { id, event in events.yield(.decoder(slot: id, event)) }
    }

    /// Cancels the prefetched slots and downloads (and the current slot unless kept).
    func dropSlots(keepingCurrent: Bool) {
        prefetched.values.forEach { $0.cancel() }
        prefetched = [:]
        enqueued = nil
        sink.enqueue(nil)
        if !keepingCurrent {
            current?.cancel()
            current = nil
            downloads.values.forEach { $0.cancel() }
            downloads = [:]
        }
    }
}
