#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore

/// The control socket: a private Unix-domain socket (mode 0600, peer uid checked) speaking one JSON
/// object per line, served from the engine loop: the listening socket and every client are watched
/// by one `poll`, so hundreds of idle connections cost nothing and nobody's slowness blocks anyone.
/// Each request goes to `handler` (the engine, through `ControlFrontEnd`) as a task on the loop;
/// its answer comes back as the line to write. A client's requests are answered one at a time, in order.
///
/// Connections are bounded without keeping anyone out: a client that sends half a line and stalls
/// is told and dropped after `stallTimeout`, an idle one after `idleTimeout`, and when `maxClients`
/// are connected a new client takes the place of the idle one heard from longest ago (a client
/// waiting for an answer or subscribed to events is never evicted). A subscriber that stops reading
/// is dropped once `maxSubscriberBacklog` bytes of events wait for it.
///
/// `start` and `stop` may be called from any thread; everything else runs on the loop's thread.
public final class ControlServer: @unchecked Sendable {   // state confined to `loop`'s thread
    /// The socket's path.
    public let path: String
    /// At most this many clients at once.
    public let maxClients: Int
    /// Seconds a client may take to finish a line it started.
    public let stallTimeout: Double
    /// Seconds a client may stay connected without sending anything (subscribers excepted).
    public let idleTimeout: Double
    /// Bytes of events that may wait for a subscriber before it is dropped.
    public let maxSubscriberBacklog = 256 << 10
    /// Requests read ahead of the one being answered before the client is no longer read.
    static let maxQueuedLines = 16
    private let loop: EngineLoop
    private let handler: @Sendable (ControlRequest) async -> [UInt8]
    private let events: EventHub?
    /// The server's one registration with `events`: each event is encoded once for every subscriber.
    private var observer: EventHub.Observer?
    private let log: Log
    private var listener: Int32 = -1
    private var clients: [Int32: ControlConnection] = [:]
    private var stopped = false
    private var acceptPaused = false
    /// Requests with the player.
    private var inFlight = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var scratch = [UInt8](repeating: 0, count: 16 << 10)
    private var connectionsMade: UInt64 = 0
    /// False when systemd made the socket (`start(adopting:)`): it is then neither replaced nor removed.
    private var ownsPath = true

    /// A server on `path`, run by `loop`, answering with `handler` (the answer's line); `subscribe`
    /// streams `events`.
    public init(path: String, loop: EngineLoop, log: Log = Log(), events: EventHub? = nil, maxClients: Int = 128,
                stallTimeout: Double = 5, idleTimeout: Double = 120,
                handler: @escaping @Sendable (ControlRequest) async -> [UInt8]) {
        self.path = path
        self.loop = loop
        self.log = log
        self.events = events
        self.maxClients = maxClients
        self.stallTimeout = stallTimeout
        self.idleTimeout = idleTimeout
        self.handler = handler
    }

    /// Binds and starts accepting. Refuses when another previewd answers on the path; replaces a stale socket.
    public func start() throws(ControlServerError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw .system(call: "mkdir", errno: errno, path: directory)
            }
        }
        try Self.checkOwnership(of: directory.isEmpty ? "." : directory)
        if UnixSocket.answers(path) { throw .alreadyRunning(path) }
        unlink(path)   // stale socket from a previewd that died

        let fd = try UnixSocket.make(path: path)
        // Created private: no window in which another user could connect before chmod.
        let oldMask = umask(0o177)
        let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
        umask(oldMask)
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "bind", errno: code, path: path)
        }
        chmod(path, 0o600)
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "listen", errno: code, path: path)
        }
        serve(on: fd)
    }

    /// Starts accepting on `fd`, a listening Unix socket systemd handed over (socket activation,
    /// `SocketActivation`): systemd made the file and keeps it, so `stop` leaves it in place.
    public func start(adopting fd: Int32) {
        ownsPath = false
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)   // systemd passes it inheritable; an event hook must not get it
        serve(on: fd)
    }

    private func serve(on fd: Int32) {
        UnixSocket.makeNonBlocking(fd)
        loop.execute { [self] in
            listener = fd
            observer = events?.addObserver { [unowned self] event in broadcast(event) }
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self] _ in acceptClients() }
        }
    }

    /// The socket's folder must be ours (or root's), and not writable by others unless sticky (/tmp):
    /// a /tmp/previewd-UID made by someone else could hand them our socket.
    static func checkOwnership(of directory: String) throws(ControlServerError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw .system(call: "lstat", errno: errno, path: directory) }
        if let why = SocketPath.folderProblem(isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, owner: info.st_uid,
                                              mode: info.st_mode, user: getuid()) {
            throw .unsafeDirectory(directory, why: why)
        }
    }

    /// Stops accepting and removes the socket file (unless systemd made it); clients waiting for an
    /// answer get it, then every connection closes.
    public func stop() {
        if ownsPath { unlink(path) }
        loop.execute { [self] in
            stopped = true
            if let observer { events?.removeObserver(observer) }
            observer = nil
            if listener >= 0 {
                loop.unwatch(listener)
                close(listener)
                listener = -1
            }
            for connection in Array(clients.values) {
                if connection.answering {
                    connection.closeWhenFlushed = true
                    connection.lines.removeAll()
                } else {
                    disconnect(connection)
                }
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

    private func wakeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters = []
        waiters.forEach { $0.resume() }
    }

    // MARK: Connections

    private func acceptClients() {
        while listener >= 0 {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return
                case EMFILE, ENFILE:
                    // Out of descriptors: stop accepting until a client leaves or a second has passed
                    // (the listener would otherwise stay readable and spin the loop).
                    log(.warning, "out of file descriptors; new control clients wait")
                    acceptPaused = true
                    loop.setEvents(listener, 0)
                    loop.after(1) { [unowned self] in resumeAccepting() }
                default:
                    log(.error, "accept: \(String(cString: strerror(errno)))")
                }
                return
            }
            UnixSocket.makeNonBlocking(fd)
            guard UnixSocket.peerUID(fd) == getuid() else {
                log(.warning, "refused a control client of another user")
                close(fd)
                continue
            }
            if clients.count >= maxClients { evictIdleClient() }
            guard clients.count < maxClients else {   // every client is waiting for an answer or subscribed
                _ = UnixSocket.writeAll(fd, ControlReply.failure(id: nil, ControlError(.internal, "too many clients")))
                close(fd)
                continue
            }
            connectionsMade += 1
            let connection = ControlConnection(fd: fd, serial: connectionsMade)
            clients[fd] = connection
            loop.watch(fd, events: Int16(POLLIN)) { [unowned self, unowned connection] ready in
                serve(connection, ready: ready)
            }
            restartTimer(connection)
        }
    }

    /// Disconnects the idle client heard from longest ago, to make room.
    private func evictIdleClient() {
        guard let oldest = clients.values.filter(\.isIdle).min(by: { $0.lastHeard < $1.lastHeard }) else { return }
        disconnect(oldest)
        log(.debug, "disconnected an idle control client to make room for a new one")
    }

    private func disconnect(_ connection: ControlConnection) {
        guard !connection.closed else { return }
        connection.closed = true
        if let timer = connection.timer { loop.cancel(timer) }
        loop.unwatch(connection.fd)
        close(connection.fd)
        clients[connection.fd] = nil
        if connection.subscription?.position == true, let observer, !clients.values.contains(where: { $0.subscription?.position == true }) {
            events?.setWantsPosition(false, for: observer)
        }
        resumeAccepting()
    }

    private func resumeAccepting() {
        guard acceptPaused, listener >= 0 else { return }
        acceptPaused = false
        loop.setEvents(listener, Int16(POLLIN))
    }

    private func serve(_ connection: ControlConnection, ready: EngineLoop.Readiness) {
        if ready & Int16(POLLOUT) != 0 { flush(connection) }
        guard !connection.closed, ready & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return }
        let n = scratch.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return }
        guard n > 0 else { return disconnect(connection) }   // gone; an answer in flight is dropped
        connection.lastHeard = MonotonicClock.nanoseconds()
        guard connection.subscription == nil else { return }   // an event stream: what it sends is ignored
        do {
            connection.lines += try connection.framer.feed(scratch[..<n])
        } catch {
            let message = "request line longer than \(connection.framer.maxLineLength) bytes; closing"
            return fail(connection, ControlReply.failure(id: nil, ControlError(.tooLong, message)))
        }
        answerNext(connection)
        restartTimer(connection)
    }

    /// Hands the connection's next request to the player, unless one is already there.
    private func answerNext(_ connection: ControlConnection) {
        while !connection.answering, !connection.closed, connection.subscription == nil, !connection.lines.isEmpty {
            let line = connection.lines.removeFirst()
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line)) else {
                write(connection, Self.badRequest(line))
                continue
            }
            if request.cmd == "subscribe" {
                subscribe(connection, request)
                continue
            }
            connection.answering = true
            inFlight += 1
            let (handler, fd, serial) = (self.handler, connection.fd, connection.serial)
            Task(executorPreference: loop) { [self] in
                let answer = await handler(request)
                answered(fd: fd, serial: serial, answer)   // back on the loop: the task prefers it
            }
        }
        updateInterest(connection)
    }

    private func answered(fd: Int32, serial: UInt64, _ answer: [UInt8]) {
        precondition(loop.inLoop)
        inFlight -= 1
        // A client that left meanwhile is gone from `clients` (its number may be another's now).
        if let connection = clients[fd], connection.serial == serial {
            connection.answering = false
            write(connection, answer)
            answerNext(connection)
            restartTimer(connection)
        }
        if inFlight == 0 { wakeIdleWaiters() }
    }

    /// The connection becomes an event stream (events as they come, position ticks when asked).
    private func subscribe(_ connection: ControlConnection, _ request: ControlRequest) {
        let position: Bool
        do {
            guard case .subscribe(let wanted) = try ControlCommand(request) else { return }
            position = wanted
        } catch {
            return write(connection, ControlReply.failure(id: request.id, error))
        }
        guard let events, let observer else {
            return write(connection, ControlReply.failure(id: request.id, ControlError(.internal, "events are not available")))
        }
        connection.subscription = .init(position: position)
        connection.lines.removeAll()
        if let timer = connection.timer { loop.cancel(timer) }
        connection.timer = nil
        write(connection, ControlReply.success(id: request.id, Subscribed(subscribed: true, position: position)))
        if position { events.setWantsPosition(true, for: observer) }   // each newcomer that asks gets a tick at once
    }

    private struct Subscribed: Encodable {
        var subscribed: Bool
        var position: Bool
    }

    /// Subscribed connections.
    var subscriberCount: Int { clients.values.count { $0.subscription != nil } }

    /// Writes `event` as one line to every subscriber (`position` only to those that asked); one
    /// that has fallen too far behind is dropped.
    private func broadcast(_ event: ControlEvent) {
        let isPosition = if case .position = event { true } else { false }
        let readers = clients.values.filter { !$0.closed && $0.subscription.map { !isPosition || $0.position } == true }
        guard !readers.isEmpty, let line = JSONLine.encode(event) else { return }
        for connection in readers where !connection.closed {
            guard connection.backlog + line.count <= maxSubscriberBacklog else {
                log(.warning, "dropped an event subscriber that stopped reading")
                disconnect(connection)
                continue
            }
            write(connection, line)
        }
    }

    // MARK: Writing and timeouts

    private func write(_ connection: ControlConnection, _ bytes: [UInt8]) {
        guard !connection.closed else { return }
        connection.output += bytes
        flush(connection)
    }

    private func flush(_ connection: ControlConnection) {
        guard connection.flush() else { return disconnect(connection) }
        if connection.backlog == 0, connection.closeWhenFlushed { return disconnect(connection) }
        updateInterest(connection)
    }

    /// Writes `answer` and closes the connection once it is sent.
    private func fail(_ connection: ControlConnection, _ answer: [UInt8]) {
        connection.closeWhenFlushed = true
        connection.lines.removeAll()
        write(connection, answer)
    }

    /// Reads while the client's queue has room (an event stream is always read, to see it leave);
    /// waits for room in the socket while output is pending.
    private func updateInterest(_ connection: ControlConnection) {
        guard !connection.closed else { return }
        let reading = !connection.closeWhenFlushed
            && (connection.subscription != nil || (connection.lines.count < Self.maxQueuedLines && connection.backlog < 64 << 10))
        let events = (reading ? Int16(POLLIN) : 0) | (connection.backlog > 0 ? Int16(POLLOUT) : 0)
        loop.setEvents(connection.fd, events)
    }

    /// Runs the stall timeout while a line is half read, else the idle timeout; none while the
    /// client waits for an answer or is subscribed.
    private func restartTimer(_ connection: ControlConnection) {
        if let timer = connection.timer { loop.cancel(timer) }
        connection.timer = nil
        guard !connection.closed, !connection.answering, connection.subscription == nil, !connection.closeWhenFlushed else { return }
        if connection.framer.bufferedCount > 0 {
            connection.timer = loop.after(stallTimeout) { [unowned self, unowned connection] in
                connection.timer = nil
                let message = "request line not finished within \(Int(stallTimeout)) s; closing"
                fail(connection, ControlReply.failure(id: nil, ControlError(.badRequest, message)))
            }
        } else {
            connection.timer = loop.after(idleTimeout) { [unowned self, unowned connection] in
                connection.timer = nil
                disconnect(connection)
            }
        }
    }

    /// The answer to a line that is not a request: with the line's id when it has one, so the
    /// client can match the error.
    static func badRequest(_ line: [UInt8]) -> [UInt8] {
        let json = try? JSONDecoder().decode(JSONValue.self, from: Data(line))
        let message = json == nil ? "not JSON: expected one object per line"
            : "not a request object: expected {\"id\": N, \"cmd\": \"...\", \"args\": {...}}"
        return ControlReply.failure(id: json?["id"]?.intValue, ControlError(.badRequest, message))
    }
}
