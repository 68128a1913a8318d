import PreviewCore

/// Engine events: decoders, downloads, the output and the measurements, in the order they
/// happened, told to the core by slot id (an event of a slot the core no longer holds changes nothing).
extension Player {
    func handle(_ event: PlayerEvent) {
        switch event {
        case .decoder(let id, let event): decoderEvent(event, slot: id)
        case .output(let event): outputEvent(event)
        case .downloadEnded(let url, let complete, let download):
            // One let go meanwhile (a head no longer wanted, asked for again) is not this one.
            guard let download, downloads[url] === download else { return }
            run(core.handle(.downloadEnded(url: url, complete: complete)))
            if complete, core.downloads[url] != nil { measureLoudness(url) }
        case .headFetched(let url, let download):
            guard let download, downloads[url] === download else { return }
            run(core.handle(.headFetched(url: url)))
        case .measured(let url, let key, let measurement): measured(url: url, key: key, measurement)
        case .estimated(let id, let estimate):
            estimating.remove(id)
            run(core.handle(.estimated(id, estimate)))
            startNextMeasurement()
        case .artworkArrived(let url, let path): run(core.handle(.artworkArrived(url: url, path: path)))
        }
    }

    private func decoderEvent(_ event: PreviewDecoder.Event, slot id: PlayerCore.SlotID) {
        let ms = { (frames: Int) in self.sequencer.format.milliseconds(frames: frames) }
        switch event {
        case .ready(let containerMs): run(core.handle(.ready(id, containerMs: containerMs)))
        case .parked:
            MemoryTrim.afterRelease()   // its FFmpeg objects were just freed
            run(core.handle(.parked(id)))
        case .finished(let frames):
            MemoryTrim.afterRelease()
            run(core.handle(.finished(id, ms: ms(frames))))
        case .failed(.cancelled, _): break
        case .failed(.fetch(.unreachable(let trouble)), 0):
            // Transient: tried again on the hold's timer; the listener sees "waiting for the network".
            let trouble = sinceTheWaitBegan(trouble, slot: id)
            log(.info, "\(slotName(id)): \(trouble.sentence); trying again")
            run(core.handle(.unreachable(id, trouble)))
        case .failed(let error, let framesBefore):
            if framesBefore > 0, core.current?.id == id { log(.info, "\(slotName(id)) stopped early: \(error.message)") }
            run(core.handle(.failed(id, error.message, afterMs: framesBefore > 0 ? max(1, ms(framesBefore)) : 0)))
        }
    }

    private func outputEvent(_ event: OutputEvent) {
        switch event {
        case .fading(let id): run(core.handle(.fading(id)))
        case .faded(let id): run(core.handle(.faded(id)))
        case .drained(let id): run(core.handle(.drained(id)))
        case .started(let id): run(core.handle(.started(id)))
        case .underrun(let id): run(core.handle(.underrun(id)))
        case .refilled(let id): run(core.handle(.refilled(id)))
        case .lost(let why, let heardFrames):
            run(core.handle(.outputLost(why, heardMs: sequencer.format.milliseconds(frames: heardFrames))))
            // Expected and retried (`ReconnectBackoff`): the listener has nothing to do yet.
            log(.info, "\(why); position \(core.heardAtLossMs ?? 0) ms of \(core.transport.item.map(core.trackName) ?? "nothing") kept, reconnecting")
        case .restored:
            log(.info, "audio output is back; resuming at \(core.heardAtLossMs ?? 0) ms")
            run(core.handle(.outputBack))
        }
    }
}
