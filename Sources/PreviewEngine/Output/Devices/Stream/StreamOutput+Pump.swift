import CPreviewLinux
import Glibc
import PreviewCore

/// The "previewd.output" thread: connecting, pacing the PCM out, noticing the reader go away.
extension StreamOutput {
    /// The thread's loop, until `close`. It holds the lock except in `poll` and while connecting.
    func serve() {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0), pollfd()]
        lock.lock()
        while !closed {
            let now = MonotonicClock.nanoseconds()
            var deadline: UInt64?
            switch link {
            case .idle where wanted: connectLocked(); continue
            case .waitingToRetry(let at) where now >= at: connectLocked(); continue
            case .waitingToRetry(let at): deadline = at
            case .ready(let fd): deadline = pumpLocked(fd, now: now)
            default: break
            }
            fds[1] = pollfd(fd: -1, events: 0, revents: 0)
            if case .ready(let fd) = link {
                // A socket's peer closing shows as RDHUP/HUP; a FIFO whose reader left, as ERR.
                let more = pendingStart < pendingEnd && !paused
                fds[1] = pollfd(fd: fd, events: Int16(POLLIN) | cpl_pollrdhup() | (more ? Int16(POLLOUT) : 0), revents: 0)
            }
            fds[0].revents = 0
            lock.unlock()
            let timeout = deadline.map { Int32(min(UInt64(Int32.max), ($0 &- min($0, now) + 999_999) / 1_000_000)) } ?? -1
            let ready = poll(&fds, 2, timeout)
            lock.lock()
            if ready > 0, fds[0].revents != 0 { cpl_eventfd_drain(wakeFD) }
            if ready > 0, case .ready(let fd) = link, fds[1].fd == fd, fds[1].revents != 0 { peerEventLocked(fd, fds[1].revents) }
        }
        if case .ready(let fd) = link { Glibc.close(fd) }
        link = .idle
        lock.unlock()
    }

    /// One attempt, made without the lock (a TCP connection may take seconds; `close` ends it early).
    private func connectLocked() {
        link = .connecting
        lock.unlock()
        let deadline = MonotonicClock.nanoseconds() + UInt64(configuration.connectTimeoutSeconds * 1e9)
        let opened = destination.open(deadline: deadline, wakeFD: wakeFD) { [self] in lock.withLock { closed } }
        lock.lock()
        switch opened {
        case .ready(let fd):
            link = .ready(fd)
            backoff.succeeded()
            pendingStart = 0
            pendingEnd = 0
            bytesWritten = 0
            source?.outputRestored()   // after a loss, the player starts again from where the sound stopped
        case .failed(let why):
            link = .idle
            failedLocked(why)
        }
    }

    /// The output went away or could not be reached: the sequencer reports the loss once (with what
    /// had been heard, so before the pending bytes are forgotten) and drops the feeds; the thread
    /// waits for the next attempt.
    func failedLocked(_ why: String) {
        source?.outputLost(why)
        if case .ready(let fd) = link { Glibc.close(fd) }
        pendingStart = 0
        pendingEnd = 0
        link = .waitingToRetry(MonotonicClock.nanoseconds() + UInt64(backoff.failed() * 1e9))
    }

    /// What `poll` saw on the descriptor besides room to write.
    private func peerEventLocked(_ fd: Int32, _ events: Int16) {
        if events & Int16(POLLIN) != 0 {
            // snapserver sends nothing on a source connection; a read of 0 is its end.
            var discard = [UInt8](repeating: 0, count: 512)
            if read(fd, &discard, discard.count) == 0 { return failedLocked("\(destination) closed the connection") }
        }
        if events & (Int16(POLLERR) | Int16(POLLHUP) | cpl_pollrdhup()) != 0 {
            failedLocked(destination.isFIFO ? "nothing reads \(destination) any more" : "\(destination) closed the connection")
        } else if events & Int16(POLLOUT) != 0 {
            writePendingLocked(fd)
        }
    }

    /// Writes what is due: the pending bytes first, then frames pulled from the sequencer up to
    /// `highWater` ahead. Returns when to look again (nil: when something happens).
    private func pumpLocked(_ fd: Int32, now: UInt64) -> UInt64? {
        guard !paused, let source, source.hasFeed else { return nil }
        writePendingLocked(fd)
        guard case .ready = link, pendingStart == pendingEnd else { return nil }   // the reader is behind: wait for POLLOUT
        let wanted = min(clock.framesWanted(at: now), scratchFrames)
        if wanted > 0 {
            let frames = source.pull(into: scratch, frames: wanted)
            encodeLocked(frames: frames, gain: SoftwareVolume.gain(percent: volumePercent, muted: muted))
            writePendingLocked(fd)
        }
        // Not due yet: the next top-up is. A feed found dry wakes the thread through its producer's
        // callback, an enqueue after a drained feed through a kick: no timer meanwhile.
        guard case .ready = link, source.expectsFrames else { return nil }
        return clock.nextTopUp
    }

    /// Encodes `frames` frames of `scratch` after the pending bytes, the gain ramping from the last
    /// one used to `gain`.
    func encodeLocked(frames: Int, gain: Float) {
        if pendingStart == pendingEnd { pendingStart = 0; pendingEnd = 0 }
        guard frames > 0, pendingEnd + frames * wireFrameBytes <= outgoing.count else { return }
        StreamOutput.wire.encode(scratch, frames: frames, channels: format.channels, into: outgoing.baseAddress! + pendingEnd,
                                 from: appliedGain, to: gain)
        appliedGain = gain
        pendingEnd += frames * wireFrameBytes
    }

    /// Hands pending bytes to the descriptor without waiting; whole frames written advance the clock.
    func writePendingLocked(_ fd: Int32) {
        while pendingStart < pendingEnd {
            let base = outgoing.baseAddress! + pendingStart
            let count = pendingEnd - pendingStart
            let n = destination.isFIFO ? write(fd, base, count) : send(fd, base, count, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return }
                return failedLocked(errno == EPIPE ? "nothing reads \(destination) any more"
                                                   : "\(destination): \(String(cString: strerror(errno)))")
            }
            let framesBefore = bytesWritten / wireFrameBytes
            bytesWritten += n
            pendingStart += n
            clock.didSend(bytesWritten / wireFrameBytes - framesBefore)
        }
    }
}
