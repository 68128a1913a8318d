import CPreviewLinux
import Glibc
import PreviewCore

/// The "previewd.httpd" thread: pacing and encoding, accepting listeners, reading their request
/// heads, writing the stream.
extension HTTPStreamOutput {
    /// Connections still sending their request head: more are closed at once (a slowloris holds
    /// at most this many sockets, each for `headTimeoutSeconds`).
    static let maxWaitingHeads = 16

    /// The thread's loop, until `close`. It holds the lock except in `poll`.
    func serve() {
        var fds: [pollfd] = []
        lock.lock()
        while !closed {
            let now = MonotonicClock.nanoseconds()
            var deadline = pumpLocked(now: now)
            for client in clients {
                guard let due = client.headDeadline else { continue }
                if due <= now { dropLocked(client) } else { deadline = min(deadline ?? due, due) }
            }
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0))
            for client in clients {
                fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | cpl_pollrdhup() | (client.hasPending ? Int16(POLLOUT) : 0), revents: 0))
            }
            lock.unlock()
            let timeout = deadline.map { Int32(min(UInt64(Int32.max), ($0 &- min($0, now) + 999_999) / 1_000_000)) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            lock.lock()
            guard ready > 0 else { continue }
            if fds[0].revents != 0 { cpl_eventfd_drain(wakeFD) }
            for entry in fds.dropFirst(2) where entry.revents != 0 {
                guard let client = clients.first(where: { $0.fd == entry.fd }) else { continue }
                clientEventLocked(client, entry.revents)
            }
            if fds[1].revents != 0 { acceptLocked() }
        }
        clients.removeAll()   // each closes its socket
        Glibc.close(listenFD)
        lock.unlock()
    }

    /// Pulls what is due while a track plays (encoded only for listeners), or encodes silence for
    /// listeners while nothing plays. Returns when to look again (nil: when something happens).
    private func pumpLocked(now: UInt64) -> UInt64? {
        let listening = clients.contains { $0.serving }
        if !paused, let source, source.hasFeed {
            drySince = nil
            let wanted = min(clock.framesWanted(at: now), scratchFrames)
            if wanted > 0 {
                let frames = source.pull(into: scratch, frames: wanted)
                clock.didSend(frames)
                if listening, frames > 0 {
                    let gain = SoftwareVolume.gain(percent: volumePercent, muted: muted)
                    SampleEncoding.float32.encode(scratch, frames: frames, channels: format.channels,
                                                  into: UnsafeMutableRawPointer(scratch), from: appliedGain, to: gain)
                    appliedGain = gain
                    encoder.encode(scratch, frames: frames)
                    broadcastLocked()
                }
            }
            // A feed found dry wakes the thread through its producer's callback, an enqueue after a
            // drained feed through a kick: no timer meanwhile.
            if source.expectsFrames { return clock.nextTopUp }
            return source.hasFeed || !listening ? nil : now
        }
        guard listening else { return nil }
        // Following another output's clock, the frames come in copies between its pulls, and the
        // queue may be empty for a moment mid-track: silence only after the output's latency with
        // nothing (a stop), at once when paused, so a track is never cut by gaps.
        if !paused {
            let since = drySince ?? now
            drySince = since
            let silenceFrom = since + UInt64(plan.latencyMs) * 1_000_000
            if now < silenceFrom { return silenceFrom }
        } else {
            drySince = nil
        }
        let wanted = min(clock.framesWanted(at: now), scratchFrames)
        if wanted > 0 {
            encoder.encode(nil, frames: wanted)
            clock.didSend(wanted)
            broadcastLocked()
        }
        return clock.nextTopUp
    }

    /// Hands the units just encoded to every listener, dropping any that cannot take them.
    private func broadcastLocked() {
        let units = encoder.take()
        guard !units.isEmpty else { return }
        var behind: [StreamClient] = []
        for client in clients where client.serving {
            for unit in units where !(unit.withUnsafeBytes { client.enqueue($0) }) {
                behind.append(client)
                break
            }
        }
        for client in behind { dropLocked(client) }
        for client in clients where client.hasPending { writeLocked(client) }
    }

    /// Accepts what is waiting; beyond `maxWaitingHeads` connections sending heads, closes at once.
    private func acceptLocked() {
        while true {
            let fd = cpl_accept(listenFD)
            guard fd >= 0 else { return }
            guard clients.count(where: { $0.headDeadline != nil }) < Self.maxWaitingHeads else {
                Glibc.close(fd)
                continue
            }
            var size: Int32 = 32 << 10   // a listener that stops reading is behind in seconds, not minutes
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let due = MonotonicClock.nanoseconds() + UInt64(plan.headTimeoutSeconds * 1e9)
            clients.append(StreamClient(fd: fd, capacity: queueBytes, headDeadline: due))
        }
    }

    /// What `poll` saw on a connection.
    private func clientEventLocked(_ client: StreamClient, _ events: Int16) {
        if events & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 1024)
            let room = client.headDeadline == nil ? buffer.count : min(buffer.count, StreamRequestHead.maxBytes + 1 - client.headBytes.count)
            let n = read(client.fd, &buffer, max(1, room))
            if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { return dropLocked(client) }
            if n > 0, client.headDeadline != nil {
                client.headBytes += buffer[..<n]
                switch StreamRequestHead.parse(client.headBytes) {
                case .incomplete: break
                case .refused(let status, _): refuseLocked(client, status: status)
                case .head(let head): answerLocked(client, head)
                }
            }   // a listener has nothing more to say: what it sends is read and forgotten
        }
        guard clients.contains(where: { $0 === client }) else { return }
        if events & (Int16(POLLERR) | Int16(POLLHUP) | cpl_pollrdhup()) != 0 { return dropLocked(client) }
        if events & Int16(POLLOUT) != 0 { writeLocked(client) }
    }

    /// Answers a whole request head: the stream, or why not.
    private func answerLocked(_ client: StreamClient, _ head: StreamRequestHead) {
        client.headDeadline = nil
        client.headBytes = []
        guard let host = head.host, hosts.allows(host: host) else { return refuseLocked(client, status: 421) }
        if !isLoopback, head.path != plan.secretPath { return refuseLocked(client, status: 404) }
        guard clients.count(where: { $0.serving }) < plan.settings.listeners else { return refuseLocked(client, status: 503) }
        var lines = ["HTTP/1.1 200 OK", "Content-Type: \(plan.address.format.contentType)", "Connection: close",
                     "Cache-Control: no-cache, no-store", "Pragma: no-cache", "Access-Control-Allow-Origin: *",
                     "icy-name: \(plan.settings.name)", "icy-br: \(plan.settings.bitrate)"]
        if head.wantsMetadata { lines.append("icy-metaint: \(IcyMetadata.interval)") }
        client.answer(lines.joined(separator: "\r\n") + "\r\n\r\n")
        if head.method == "HEAD" {
            client.closeWhenWritten = true
        } else {
            if client.serving == false, !clients.contains(where: { $0.serving }) {
                appliedGain = SoftwareVolume.gain(percent: volumePercent, muted: muted)
            }
            client.serving = true
            if head.wantsMetadata { client.startMetadata(every: IcyMetadata.interval) }
            if !encoder.header.isEmpty { _ = encoder.header.withUnsafeBytes { client.enqueue($0) } }   // Ogg: the headers first
            cpl_eventfd_signal(wakeFD)   // the first listener starts the silence, or the encoding
        }
        writeLocked(client)
    }

    /// Answers `status` and closes once it is written.
    private func refuseLocked(_ client: StreamClient, status: Int) {
        client.headDeadline = nil
        let reason = [400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 421: "Misdirected Request",
                      431: "Request Header Fields Too Large", 503: "Service Unavailable"][status] ?? "Error"
        let body = "\(status) \(reason)\n"
        client.answer("HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        client.closeWhenWritten = true
        writeLocked(client)
    }

    /// Writes what the connection takes now; closes it when done with, or failed.
    private func writeLocked(_ client: StreamClient) {
        let written = client.flush { [self] client in
            guard client.titleVersion != titleVersion else { return IcyMetadata.unchanged }
            client.titleVersion = titleVersion
            return titleBlock
        }
        if !written || (client.closeWhenWritten && !client.hasPending) { dropLocked(client) }
    }

    /// Closes a connection.
    private func dropLocked(_ client: StreamClient) {
        clients.removeAll { $0 === client }
    }
}
