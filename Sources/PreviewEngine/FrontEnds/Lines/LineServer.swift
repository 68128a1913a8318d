import CPreviewLinux
import Glibc
import PreviewCore

/// The connection server of every line protocol (the JSON control socket, MPD's): listeners (Unix
/// sockets, and TCP when a front-end asks) and clients all watched by the engine loop's one `poll`,
/// so hundreds of idle connections cost nothing, no client has a thread, and nobody's slowness
/// blocks anyone. The protocol (`LineProtocol`) gets each line and answers it, now or later; the
/// server keeps, for every protocol, the bounds of its `LineRules`:
/// - a line longer than `maxLineLength` ends the connection (after the protocol's farewell);
/// - a line started and not finished within `stallTimeout` ends it (likewise), and a client that
///   sends nothing for `idleTimeout` is closed, unless it waits for an answer or is marked waiting;
/// - lines read ahead are bounded, and a client whose output waits unread is no longer read; one
///   that lets more than `maxPushBacklog` of pushed output (events) wait is cut off;
/// - with `maxClients` connected, a newcomer takes the place of the idle client heard from longest
///   ago (never one waiting for an answer or marked waiting); with none idle, it is told and closed.
///
/// `listen`, `adopt` and `stop` may be called from any thread; everything else runs on the loop's.
public final class LineServer: @unchecked Sendable {   // state confined to `loop`'s thread
    /// Why the server closes a connection with the protocol's last words.
    public enum Closing: Sendable, Equatable {
        /// A line longer than the limit.
        case tooLong(limit: Int)
        /// A line started and not finished within the stall timeout.
        case stalled(seconds: Double)
        /// `maxClients` connected and none of them idle: the newcomer is refused.
        case full
    }

    /// The bounds kept for every client.
    public let rules: LineRules
    /// What the log calls these clients ("control", "MPD").
    public let name: String
    private let handler: any LineProtocol
    private let loop: EngineLoop
    private let log: Log
    /// Every listener made or adopted and not yet closed (shared with `stop`'s caller, hence locked).
    private let listeners = Locked<[Listener]>([])
    private var watched: [Listener] = []
    private var clients: [Int32: LineConnection] = [:]
    private var stopped = false
    private var acceptPaused = false
    /// Lines handed to the protocol and not yet answered, across clients.
    private var inFlight = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var scratch = [UInt8](repeating: 0, count: 16 << 10)
    private var connectionsMade: UInt64 = 0

    /// A server of `lineProtocol`'s clients, run by `loop`; it listens once told where.
    public init(serving lineProtocol: any LineProtocol, loop: EngineLoop, name: String, log: Log = Log()) {
        handler = lineProtocol
        rules = lineProtocol.rules
        self.loop = loop
        self.name = name
        self.log = log
    }

    /// Binds `address` and starts accepting there (`Listener.bind`). Any thread.
    @discardableResult
    public func listen(on address: ListenAddress) throws(ListenerError) -> Listener {
        let listener = try Listener.bind(address)
        adopt(listener)
        return listener
    }

    /// Starts accepting on `listener` (one systemd handed over: `Listener.adopting`). Any thread.
    public func adopt(_ listener: Listener) {
        _ = fcntl(listener.fd, F_SETFD, FD_CLOEXEC)   // systemd passes it inheritable; an event hook must not get it
        listeners.withLock { $0.append(listener) }
        loop.execute { [self] in
            guard !stopped else { Glibc.close(listener.fd); return }
            watched.append(listener)
            loop.watch(listener.fd, events: acceptPaused ? 0 : Int16(POLLIN)) { [unowned self] _ in acceptClients(from: listener) }
        }
    }

    /// Stops accepting and removes the socket files it made (at once); clients waiting for an answer
    /// get it, then every connection closes. Any thread.
    public func stop() {
        let closing = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return listeners
        }
        closing.forEach { $0.removeFile() }
        loop.execute { [self] in
            stopped = true
            for listener in watched {
                loop.unwatch(listener.fd)
                Glibc.close(listener.fd)
            }
            watched.removeAll()
            for connection in Array(clients.values) {
                connection.lines.removeAll()
                if connection.awaiting > 0 { closeWhenDone(connection) } else { disconnect(connection) }
            }
        }
    }

    /// After `stop`: returns once the answers in flight are written, or after `seconds`. Call from
    /// a task on the loop.
    public func waitUntilIdle(seconds: Double) async {
        precondition(loop.inLoop)
        guard inFlight > 0 else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            idleWaiters.append(continuation)
            loop.after(seconds) { [self] in wakeIdleWaiters() }
        }
    }

    /// Clients connected now. On the loop.
    public var clientCount: Int { clients.count }

    private func wakeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters = []
        waiters.forEach { $0.resume() }
    }

    // MARK: Accepting

    private func acceptClients(from listener: Listener) {
        while !stopped {
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return
                case EMFILE, ENFILE:
                    // Out of descriptors: stop accepting until a client leaves or a second has passed
                    // (the listener would otherwise stay readable and spin the loop).
                    log(.warning, "out of file descriptors; new \(name) clients wait")
                    acceptPaused = true
                    watched.forEach { loop.setEvents($0.fd, 0) }
                    loop.after(1) { [unowned self] in resumeAccepting() }
                default:
                    log(.error, "accept: \(String(cString: strerror(errno)))")
                }
                return
            }
            UnixSocket.makeNonBlocking(fd)
            if listener.checksPeer, UnixSocket.peerUID(fd) != getuid() {
                log(.warning, "refused a \(name) client of another user")
                Glibc.close(fd)
                continue
            }
            if !listener.checksPeer {
                var one: Int32 = 1   // answers are small lines: no Nagle delay
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            connectionsMade += 1
            let connection = LineConnection(fd: fd, serial: connectionsMade, listener: listener, server: self,
                                            maxLineLength: rules.maxLineLength)
            if clients.count >= rules.maxClients { evictIdleClient() }
            guard clients.count < rules.maxClients else {   // every client waits for an answer or for events
                _ = UnixSocket.writeAll(fd, handler.farewell(.full, for: connection))
                connection.closed = true
                Glibc.close(fd)
                continue
            }
            clients[fd] = connection
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self, unowned connection] ready in
                serve(connection, ready: ready)
            }
            write(connection, handler.greeting(for: connection))
            restartTimer(connection)
        }
    }

    /// Disconnects the idle client heard from longest ago, to make room.
    private func evictIdleClient() {
        guard let oldest = clients.values.filter(\.isIdle).min(by: { $0.lastHeard < $1.lastHeard }) else { return }
        disconnect(oldest)
        log(.debug, "disconnected an idle \(name) client to make room for a new one")
    }

    private func disconnect(_ connection: LineConnection) {
        guard !connection.closed else { return }
        connection.closed = true
        if let timer = connection.timer { loop.cancel(timer) }
        connection.timer = nil
        connection.lines.removeAll()
        loop.unwatch(connection.fd)
        Glibc.close(connection.fd)
        clients[connection.fd] = nil
        // Its answers have nobody to go to: they are not waited for, and dropped when given.
        inFlight -= connection.awaiting
        connection.awaiting = 0
        handler.disconnected(connection)
        resumeAccepting()
        if inFlight == 0 { wakeIdleWaiters() }
    }

    private func resumeAccepting() {
        guard acceptPaused, !stopped else { return }
        acceptPaused = false
        watched.forEach { loop.setEvents($0.fd, Int16(POLLIN)) }
    }

    // MARK: Reading and handing lines over

    private func serve(_ connection: LineConnection, ready: EngineLoop.Readiness) {
        if ready & Int16(POLLOUT) != 0 { flush(connection) }
        guard !connection.closed, ready & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let n = scratch.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return }
        guard n > 0 else { return disconnect(connection) }   // gone; an answer in flight is dropped
        connection.lastHeard = MonotonicClock.nanoseconds()
        guard !connection.closing else { return }   // its last words are said: what it sends is ignored
        do {
            connection.lines += try connection.framer.feed(scratch[..<n])
        } catch {
            connection.lines.removeAll()
            write(connection, handler.farewell(.tooLong(limit: connection.framer.maxLineLength), for: connection))
            return closeWhenDone(connection)
        }
        dispatch(connection)
    }

    /// Hands the connection's lines to the protocol: the next once the last is answered (in order),
    /// or all of them up to the bound (at once, or in order while it is marked waiting).
    func dispatch(_ connection: LineConnection) {
        guard !connection.dispatching else { return }   // an answer given inside `received`: the loop below goes on
        connection.dispatching = true
        while !connection.closed, !connection.closing, !connection.lines.isEmpty, mayHandOver(to: connection) {
            let line = connection.lines.removeFirst()
            connection.awaiting += 1
            inFlight += 1
            handler.received(line, on: connection)
        }
        connection.dispatching = false
        updateInterest(connection)
        restartTimer(connection)
    }

    private func mayHandOver(to connection: LineConnection) -> Bool {
        switch rules.delivery {
        case .inOrder: connection.awaiting == 0
        case .inOrderUnlessWaiting: connection.awaiting == 0 || (connection.isWaiting && connection.awaiting < rules.maxQueuedLines)
        case .atOnce: connection.awaiting < rules.maxQueuedLines
        }
    }

    /// The protocol's answer to the oldest line it was handed by `connection`.
    func answered(_ connection: LineConnection, _ bytes: [UInt8]) {
        precondition(loop.inLoop)
        guard !connection.closed else { return }   // the client left meanwhile: nobody to tell
        guard connection.awaiting > 0 else { return assertionFailure("an answer to no line") }
        connection.awaiting -= 1
        inFlight -= 1
        write(connection, bytes)
        connection.answered = connection.output.count
        if connection.closing { flush(connection) } else { dispatch(connection) }
        if inFlight == 0 { wakeIdleWaiters() }
    }

    /// Output the client did not ask for; one that has let too much of it wait is cut off.
    func push(_ bytes: [UInt8], to connection: LineConnection) {
        precondition(loop.inLoop)
        guard connection.isOpen else { return }
        guard connection.pushBacklog + bytes.count <= rules.maxPushBacklog else {
            log(.warning, "dropped a \(name) client that stopped reading")
            return disconnect(connection)
        }
        write(connection, bytes)
    }

    /// Closes `connection` once its output is written and no answer is awaited.
    func closeWhenDone(_ connection: LineConnection) {
        guard !connection.closed else { return }
        connection.closing = true
        connection.lines.removeAll()
        if let timer = connection.timer { loop.cancel(timer) }
        connection.timer = nil
        flush(connection)
    }

    // MARK: Writing and timeouts

    private func write(_ connection: LineConnection, _ bytes: [UInt8]) {
        guard !connection.closed, !bytes.isEmpty else { return }
        connection.output += bytes
        flush(connection)
    }

    private func flush(_ connection: LineConnection) {
        guard !connection.closed else { return }
        guard connection.flush() else { return disconnect(connection) }
        if connection.closing, connection.backlog == 0, connection.awaiting == 0 { return disconnect(connection) }
        updateInterest(connection)
    }

    /// Reads while the client's queue has room and its output does not wait; waits for room in the
    /// socket while output is pending.
    private func updateInterest(_ connection: LineConnection) {
        guard !connection.closed else { return }
        let reading = !connection.closing && connection.lines.count + connection.awaiting < rules.maxQueuedLines
            && connection.backlog < rules.maxReadAheadBacklog
        let events = (reading ? Int16(POLLIN) : 0) | (connection.backlog > 0 ? Int16(POLLOUT) : 0)
        loop.setEvents(connection.fd, events)
    }

    /// Runs the stall timeout while a line is half read, else the idle timeout; none while the
    /// client waits for an answer, nor (the idle one) while it is marked waiting.
    func restartTimer(_ connection: LineConnection) {
        if let timer = connection.timer { loop.cancel(timer) }
        connection.timer = nil
        guard !connection.closed, !connection.closing, connection.awaiting == 0 else { return }
        // `clients` owns the connection and every way out of it cancels this timer, so the closure
        // never starts on a freed one; but it must read `connection` once, as the argument of one
        // call (held for that call): read again after something that may disconnect it (the
        // farewell's write, when the peer left), it would be freed by then.
        if connection.framer.bufferedCount > 0 {
            connection.timer = loop.after(rules.stallTimeout) { [unowned self, unowned connection] in stalled(connection) }
        } else if let seconds = rules.idleTimeout, !connection.isWaiting {
            connection.timer = loop.after(seconds) { [unowned self, unowned connection] in idled(connection) }
        }
    }

    /// A line started and not finished within the stall timeout: the protocol's farewell, then close.
    /// Writing it may already disconnect the client (gone meanwhile); `closeWhenDone` then does nothing.
    private func stalled(_ connection: LineConnection) {
        connection.timer = nil
        write(connection, handler.farewell(.stalled(seconds: rules.stallTimeout), for: connection))
        closeWhenDone(connection)
    }

    /// Nothing heard for the idle timeout.
    private func idled(_ connection: LineConnection) {
        connection.timer = nil
        disconnect(connection)
    }
}
