import CALSA
import CPreviewLinux
import Glibc
import PreviewCore

/// The "previewd.alsa" thread: writing what is due, pausing, dropping, losing and reopening the device.
extension ALSAOutput {
    /// The thread's loop, until `close`. It holds the lock except in `poll` and while opening.
    func serve() {
        var fds = [pollfd](repeating: pollfd(fd: -1, events: 0, revents: 0), count: 9)
        lock.lock()
        while !closed {
            let now = MonotonicClock.nanoseconds()
            var deadline: UInt64?
            var watched = 0
            switch link {
            case .waitingToRetry(let at) where now >= at: reopenLocked(); continue
            case .waitingToRetry(let at): deadline = at
            case .ready(let device):
                // Room is waited for only while there is something to write: paused, idle or dry,
                // the device's descriptors are not polled at all.
                let due = serviceLocked(device, now: now)
                deadline = pauseAt
                guard case .ready(let same) = link, same === device else { continue }   // lost: wait for the retry
                if due {
                    watched = fds.withUnsafeMutableBufferPointer { device.pollDescriptors($0.baseAddress! + 1, space: $0.count - 1) }
                }
            }
            fds[0] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            lock.unlock()
            let timeout = deadline.map { Int32(min(UInt64(Int32.max), ($0 &- min($0, now) + 999_999) / 1_000_000)) } ?? -1
            let ready = poll(&fds, nfds_t(1 + watched), timeout)
            lock.lock()
            if ready > 0, fds[0].revents != 0 { cpl_eventfd_drain(wakeFD) }
            if ready > 0, watched > 0, case .ready(let device) = link,
               fds.withUnsafeMutableBufferPointer({ device.events($0.baseAddress! + 1, count: watched) }) & Int16(POLLERR) != 0,
               device.state == SND_PCM_STATE_DISCONNECTED {
                failedLocked("ALSA device \(request.name) went away")
            }
        }
        link = .waitingToRetry(.max)   // the device is closed as it is released
        lock.unlock()
    }

    /// Acts on what the sequencer asked (drop, pause, resume) and writes what is due. Returns true
    /// when frames are waiting for room (poll the device), false when nothing is to be written now.
    private func serviceLocked(_ device: ALSADevice, now: UInt64) -> Bool {
        if dropPending {
            dropPending = false
            devicePaused = false
            let prepared = device.dropAndPrepare()
            guard prepared >= 0 else { failedLocked(ALSADevice.text(prepared)); return false }
        }
        if paused {
            guard !devicePaused else { return false }
            // What the sequencer wrote last, its fade-out, is heard before the device stops: the
            // pending frames go in, and the thread waits the device's own delay for them to play
            // (a timeout on its one poll, not a loop), then pauses. A pause never cuts a waveform.
            if pendingStart < pendingEnd, writePendingLocked(device) { return true }
            guard case .ready(let same) = link, same === device else { return false }   // lost meanwhile
            let left = device.state == SND_PCM_STATE_RUNNING ? device.delay : 0
            if left > 0, pendingStart == pendingEnd {
                if pauseAt == nil || now >= pauseAt! { pauseAt = now + UInt64(left) * 1_000_000_000 / UInt64(format.sampleRate) + 500_000 }
                return false
            }
            pauseAt = nil
            pauseLocked(device)
            heardLocked()
            return false
        }
        pauseAt = nil
        if devicePaused {
            devicePaused = false
            if device.canPause, device.state == SND_PCM_STATE_PAUSED, device.pause(false) < 0 {
                // It cannot go on where it was (suspended meanwhile): start it again, empty.
                _ = device.dropAndPrepare()
            }
        }
        guard let source else { return false }
        while true {
            if writePendingLocked(device) { return true }   // the rest waits for room
            guard case .ready(let same) = link, same === device, source.expectsFrames else { return false }
            let room = device.available()
            if room < 0 {
                guard device.recover(room) else { failedLocked(ALSADevice.text(Int32(room))); return false }
                continue
            }
            if room == 0 { return true }
            let got = source.pull(into: scratch, frames: min(room, capacityFrames))
            guard got > 0 else { return false }   // dry or drained: its producer or `enqueue` kicks
            encodeLocked(frames: got)
        }
    }

    /// Writes the pending frames the device has room for; true when the rest waits for room.
    private func writePendingLocked(_ device: ALSADevice) -> Bool {
        while pendingStart < pendingEnd {
            let room = device.available()
            if room < 0 {
                guard device.recover(room) else { failedLocked(ALSADevice.text(Int32(room))); return false }
                continue
            }
            if room == 0 { return true }
            let written = device.write(outgoing + pendingStart * frameBytes, frames: min(room, pendingEnd - pendingStart))
            if written == -Int(EAGAIN) { return true }
            if written < 0 {
                guard device.recover(written) else { failedLocked(ALSADevice.text(Int32(written))); return false }
                continue
            }
            if !device.canPause { rememberLocked(frames: written) }   // only a drop-and-refill pause needs it
            pendingStart += written
        }
        (pendingStart, pendingEnd) = (0, 0)
        return false
    }

    /// Stops the sound now. A device that can pause keeps its frames; one that cannot drops them, and
    /// those not yet heard go back in front of the pending ones, written again on resume.
    private func pauseLocked(_ device: ALSADevice) {
        devicePaused = true
        guard device.state == SND_PCM_STATE_RUNNING else { return }
        if device.canPause, device.pause(true) >= 0 { return }
        let unheard = min(device.delay, historyCount)
        _ = device.dropAndPrepare()
        let pending = pendingEnd - pendingStart
        let bytes = frameBytes
        (outgoing + unheard * bytes).copyMemory(from: outgoing + pendingStart * bytes, byteCount: pending * bytes)
        // The last `unheard` frames of the history ring, in order: at most two runs.
        let start = (historyEnd - unheard + capacityFrames) % capacityFrames
        let firstRun = min(unheard, capacityFrames - start)
        outgoing.copyMemory(from: history + start * bytes, byteCount: firstRun * bytes)
        (outgoing + firstRun * bytes).copyMemory(from: history, byteCount: (unheard - firstRun) * bytes)
        (pendingStart, pendingEnd) = (0, unheard + pending)
        historyCount = 0
    }

    /// Encodes `frames` frames of `scratch` after the pending ones (which are none when it is called),
    /// the gain ramping from the last one used.
    private func encodeLocked(frames: Int) {
        let gain = softwareGain
        encoding.encode(scratch, frames: frames, channels: format.channels, into: outgoing + pendingEnd * frameBytes,
                        from: appliedGain, to: gain)
        appliedGain = gain
        pendingEnd += frames
    }

    /// Keeps a copy of the frames just written at `pendingStart` in the history ring.
    private func rememberLocked(frames: Int) {
        let bytes = frameBytes
        var copied = max(0, frames - capacityFrames)   // only the last `capacityFrames` can be wanted
        while copied < frames {
            let run = min(frames - copied, capacityFrames - historyEnd)
            (history + historyEnd * bytes).copyMemory(from: outgoing + (pendingStart + copied) * bytes, byteCount: run * bytes)
            historyEnd = (historyEnd + run) % capacityFrames
            copied += run
        }
        historyCount = min(capacityFrames, historyCount + frames)
    }

    /// The device went away or could not be opened: the sequencer reports the loss once (with what
    /// had been heard, so before the device is released) and drops the feeds; the thread opens it
    /// again after the next back-off step.
    func failedLocked(_ why: String) {
        pauseAt = nil
        heardLocked()   // what it held is gone
        source?.outputLost(why.hasPrefix("cannot") || why.hasPrefix("ALSA") ? why : "ALSA device \(request.name): \(why)")
        link = .waitingToRetry(MonotonicClock.nanoseconds() + UInt64(backoff.failed() * 1e9))
        (pendingStart, pendingEnd, historyCount) = (0, 0, 0)
        (devicePaused, dropPending) = (false, false)
    }

    /// One attempt at the device, in the format the engine decodes to; made without the lock (a
    /// plugin may take a moment to connect).
    private func reopenLocked() {
        link = .waitingToRetry(.max)
        lock.unlock()
        let opened = Result { () throws(ALSADevice.Failure) in try ALSADevice(request, exactly: format) }
        lock.lock()
        guard !closed else { return }
        switch opened {
        case .success(let device):
            link = .ready(device)
            encoding = device.encoding
            backoff.succeeded()
            (pendingStart, pendingEnd, historyCount) = (0, 0, 0)
            (devicePaused, dropPending) = (false, false)
            source?.outputRestored()   // after a loss, the player starts again from where the sound stopped
        case .failure(let failure):
            failedLocked(failure.reason)
        }
    }
}
