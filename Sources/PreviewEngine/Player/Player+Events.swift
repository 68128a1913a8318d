import PreviewCore

/// Engine events: decoders and the output, in the order they happened.
extension Player {
    func handle(_ event: PlayerEvent) {
        switch event {
        case .decoder(let id, let event): decoderEvent(event, slot: id)
        case .output(let event): outputEvent(event)
        case .downloadComplete: updatePrefetch()
        }
    }

    private func decoderEvent(_ event: PreviewDecoder.Event, slot id: UInt64) {
        switch event {
        case .parked, .finished: MemoryTrim.afterRelease()   // its FFmpeg objects were just freed
        case .ready, .failed: break
        }
        if let slot = current, slot.id == id {
            slot.record(event)
            guard let request = transport.currentRequest else { return }
            switch event {
            case .ready(let containerMs):
                if let containerMs, durationMs[id] == nil { durationMs[id] = containerMs }
                try? apply(.trackReady(request))
            case .finished(let frames):
                durationMs[id] = slot.startMs + sink.format.milliseconds(frames: frames)
            case .failed(.cancelled, _), .parked:
                break
            case .failed(let error, let framesBefore):
                if framesBefore == 0 {
                    try? apply(.trackFailed(request, error.message))
                } else {
                    // Corrupt or cut off after good audio: what was decoded plays, then the track ends.
                    log(.warning, "track stopped early: \(error.message)")
                    durationMs[id] = slot.startMs + sink.format.milliseconds(frames: framesBefore)
                }
            }
            let held = Set(prefetched.values.map(\.id) + [id])
            durationMs = durationMs.filter { held.contains($0.key) }
            return
        }
        guard let (index, slot) = prefetched.first(where: { $0.value.id == id }) else { return }   // a dropped slot
        slot.record(event)
        switch event {
        case .ready(let containerMs?):
            if durationMs[id] == nil { durationMs[id] = containerMs }
        case .finished(let frames):
            durationMs[id] = sink.format.milliseconds(frames: frames)
        case .failed(let error, 0) where error != .cancelled:
            // A neighbour that cannot play is skipped before anyone asks for it.
            prefetched[index] = nil
            queue.markFailed(index, message: error.message)
            queueVersion += 1
            publishError("track \(index): \(error.message)")
            log(.warning, "track \(index) failed while prefetching: \(error.message)")
            updatePrefetch()
        default:
            break
        }
    }

    private func outputEvent(_ event: OutputEvent) {
        let request = transport.currentRequest
        let isCurrent = { (feed: ObjectIdentifier) in self.current.map { ObjectIdentifier($0.pcm) == feed } ?? false }
        switch event {
        case .drained(let feed):
            if let request, isCurrent(feed) { try? apply(.trackEnded(request)) }
        case .started:
            break
        case .underrun(let feed):
            if let request, isCurrent(feed) { try? apply(.underrun(request)) }
        case .refilled(let feed):
            if let request, isCurrent(feed) { try? apply(.refilled(request)) }
        case .lost(let why, let heardFrames):
            lastError = why
            heardAtLossMs = (current?.startMs ?? 0) + sink.format.milliseconds(frames: heardFrames)
            enqueued = nil
            log(.error, "\(why); position \(heardAtLossMs ?? 0) ms kept, reconnecting")
            try? apply(.outputLost)
        case .restored:
            log(.info, "audio output is back; resuming at \(heardAtLossMs ?? 0) ms")
            lastError = nil
            sink.setVolume(volume, muted: muted)
            try? apply(.outputBack(positionMs: heardAtLossMs ?? 0))
            heardAtLossMs = nil
        }
    }
}
