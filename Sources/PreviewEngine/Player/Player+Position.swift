import PreviewCore

/// Position ticks: once a second while a track plays and a front-end wants them, and only then.
/// Every other event comes from the core, as an effect (`.notify`).
extension Player {
    /// A front-end asked for position ticks (it gets one now), or the last one left.
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

    /// Tells front-ends about a failure the core does not see (a catalog call).
    func publishError(_ message: String) {
        hub?.publish(.error(message))
    }
}
