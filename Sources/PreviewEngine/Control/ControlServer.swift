#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import PreviewCore

/// The control socket: a private Unix-domain socket (mode 0600, peer uid checked) speaking one JSON
/// object per line. Each client gets a thread that reads its lines, hands each request to `handler`
/// (the player) and writes the answer, so a slow or hostile client never blocks the player or others.
///
/// Connections are bounded without keeping anyone out: a client that sends half a line and stalls
/// is dropped after `stallTimeout`, an idle one after `idleTimeout`, and when `maxClients` are
/// connected a new client takes the place of the idle one heard from longest ago (a client waiting
/// for an answer or subscribed to events is never evicted).
public final class ControlServer {
    /// The socket's path.
    public let path: String
    /// At most this many clients at once.
    public let maxClients: Int
    /// Seconds a client may take to finish a line it started.
    public let stallTimeout: Double
    /// Seconds a client may stay connected without sending anything (subscribers excepted).
    public let idleTimeout: Double
    private let handler: @Sendable (ControlRequest) async -> ControlResponse
    private let events: EventHub?
    private let log: Log
    private let lock = Lock()
    /// Broadcast whenever a client's thread ends, for `waitUntilIdle`.
    private let left = Condition()
    private var listener: Int32 = -1                 // protected by lock
    private var clients: [Int32: Client] = [:]       // protected by lock
    private var stopped = false                      // protected by lock

    /// What the server knows of a connected client.
    private struct Client {
        /// When it last sent something (monotonic nanoseconds).
        var lastHeard: UInt64
        /// Waiting for an answer, or subscribed: not to be evicted.
        var busy = false
    }

    /// A server on `path` answering with `handler`; `subscribe` streams `events`.
    public init(path: String, log: Log = Log(), events: EventHub? = nil, maxClients: Int = 128,
                stallTimeout: Double = 5, idleTimeout: Double = 120,
                handler: @escaping @Sendable (ControlRequest) async -> ControlResponse) {
        self.path = path
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
        lock.lock()
        listener = fd
        lock.unlock()
        startThread(named: "previewd.accept") { [self] in acceptLoop(fd) }
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

    /// Stops accepting, disconnects every client and removes the socket file.
    public func stop() {
        lock.lock()
        let fd = listener
        listener = -1
        stopped = true
        // Under the lock: a client's thread closes its descriptor only after taking it (in `serve`),
        // so the number cannot have gone to another socket yet.
        for client in clients.keys { shutdown(client, Int32(SHUT_RDWR)) }
        lock.unlock()
        if fd >= 0 {
            // shutdown wakes the accept thread, which closes the descriptor itself: closing it here
            // could hand its number to a new socket while that thread still calls accept on it.
            shutdown(fd, Int32(SHUT_RDWR))
            unlink(path)
        }
    }

    /// After `stop`: waits up to `seconds` for the clients' threads to finish the answers they are
    /// writing, so no request is still being handled when the process exits.
    public func waitUntilIdle(seconds: Double) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        // Checked and waited for under `left`'s mutex, which every leaving thread takes to broadcast:
        // no departure can fall between the check and the wait.
        left.lock()
        defer { left.unlock() }
        while lock.withLock({ !clients.isEmpty }) {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { return }
            left.wait(seconds: Double(deadline - now) / 1e9)
        }
    }

    private func acceptLoop(_ fd: Int32) {
        defer { close(fd) }
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                lock.lock(); let done = stopped; lock.unlock()
                if done { return }
                if errno == EMFILE || errno == ENFILE { usleep(100_000); continue }   // out of fds: back off
                log(.error, "accept: \(String(cString: strerror(errno)))")
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            guard UnixSocket.peerUID(client) == getuid() else {
                log(.warning, "refused a control client of another user")
                close(client)
                continue
            }
            lock.lock()
            let done = stopped
            if !done, clients.count >= maxClients { evictIdleClient() }
            let admitted = clients.count < maxClients && !done
            if admitted { clients[client] = Client(lastHeard: MonotonicClock.nanoseconds()) }
            lock.unlock()
            if done {
                close(client)
                return
            }
            guard admitted else {   // every client is waiting for an answer or subscribed
                _ = UnixSocket.writeAll(client, Self.encode(.failure(id: nil, ControlError(.internal, "too many clients"))))
                close(client)
                continue
            }
            // A client that stops reading cannot hold a session thread forever.
            UnixSocket.setTimeouts(client, seconds: 5)
            startThread(named: "previewd.client") { [self] in serve(client) }
        }
    }

    /// Disconnects the idle client heard from longest ago, to make room. Called with `lock` held:
    /// its thread closes the descriptor only after taking the lock, so the number is still its own.
    private func evictIdleClient() {
        guard let (fd, _) = clients.filter({ !$0.value.busy }).min(by: { $0.value.lastHeard < $1.value.lastHeard }) else { return }
        clients[fd] = nil
        shutdown(fd, Int32(SHUT_RDWR))
        log(.debug, "disconnected an idle control client to make room for a new one")
    }

    /// Notes that `fd` was heard from, and whether it now waits for an answer.
    private func mark(_ fd: Int32, busy: Bool) {
        lock.withLock {
            clients[fd]?.lastHeard = MonotonicClock.nanoseconds()
            clients[fd]?.busy = busy
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.lock(); clients[fd] = nil; lock.unlock()
            close(fd)
            left.lock(); left.broadcast(); left.unlock()
        }
        var framer = LineFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            // The wait for the next byte is bounded: shortly in the middle of a line, longer between lines.
            let midLine = framer.bufferedCount > 0
            UnixSocket.setReceiveTimeout(fd, seconds: midLine ? stallTimeout : idleTimeout)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if midLine {
                    let message = "request line not finished within \(Int(stallTimeout)) s; closing"
                    _ = UnixSocket.writeAll(fd, Self.encode(.failure(id: nil, ControlError(.badRequest, message))))
                }
                return
            }
            guard n > 0 else { return }
            let lines: [[UInt8]]
            do {
                lines = try framer.feed(buffer[..<n])
            } catch {
                let message = "request line longer than \(framer.maxLineLength) bytes; closing"
                _ = UnixSocket.writeAll(fd, Self.encode(.failure(id: nil, ControlError(.tooLong, message))))
                return
            }
            mark(fd, busy: !lines.isEmpty)
            for line in lines where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line))
                if let request, request.cmd == "subscribe" {
                    do {
                        if case .subscribe(let position) = try ControlCommand(request) {
                            streamEvents(fd, id: request.id, position: position)   // stays busy
                            return
                        }
                    } catch {
                        guard UnixSocket.writeAll(fd, Self.encode(.failure(id: request.id, error))) else { return }
                        continue
                    }
                }
                guard UnixSocket.writeAll(fd, Self.encode(answer(line, request))) else { return }
            }
            mark(fd, busy: false)
        }
    }

    /// The connection has become an event stream: events as they come (and the position every
    /// second when asked) until the client leaves, falls too far behind, or the server stops.
    private func streamEvents(_ fd: Int32, id: Int?, position: Bool) {
        guard let events else {
            _ = UnixSocket.writeAll(fd, Self.encode(.failure(id: id, ControlError(.internal, "events are not available"))))
            return
        }
        let subscription = events.subscribe()
        defer { subscription.cancel() }
        guard UnixSocket.writeAll(fd, Self.encode(.success(id: id, .object(["subscribed": .bool(true), "position": .bool(position)])))) else {
            return
        }
        var lastTick: UInt64 = 0
        while true {
            guard let lines = subscription.take(timeout: 0.25) else {
                log(.warning, "dropped an event subscriber that stopped reading")
                return
            }
            for line in lines { guard UnixSocket.writeAll(fd, line) else { return } }
            lock.lock(); let done = stopped; lock.unlock()
            if done || UnixSocket.peerHasLeft(fd) { return }
            let now = MonotonicClock.nanoseconds()
            if position, now - lastTick >= 1_000_000_000 {
                lastTick = now
                guard let status = answer(nil, ControlRequest(id: nil, cmd: "status")).result?.decodeStatus() else { continue }
                let tick = ControlEvent.position(ms: status.positionMs, durationMs: status.durationMs)
                guard UnixSocket.writeAll(fd, EventHub.encode(tick)) else { return }
            }
        }
    }

    /// Decodes one line and waits for the player's answer; this thread blocks, the player does not.
    private func answer(_ line: [UInt8]?, _ decoded: ControlRequest?) -> ControlResponse {
        guard let request = decoded else {
            // Answer with the line's id when it has one, so the client can match the error.
            let json = line.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0)) }
            let message = json == nil ? "not JSON: expected one object per line"
                : "not a request object: expected {\"id\": N, \"cmd\": \"...\", \"args\": {...}}"
            return .failure(id: json?["id"]?.intValue, ControlError(.badRequest, message))
        }
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        Task {
            box.value = await handler(request)
            done.signal()
        }
        done.wait()
        return box.value ?? .failure(id: request.id, ControlError(.internal, "no answer"))
    }

    static func encode(_ response: ControlResponse) -> [UInt8] {
        JSONLine.encode(response)
            ?? Array(#"{"ok":false,"error":{"code":"internal","message":"could not encode the answer"}}\#n"#.utf8)
    }
}

// `listener`, `clients` and `stopped` are guarded by `lock`; the rest is immutable.
extension ControlServer: @unchecked Sendable {}

private extension JSONValue {
    func decodeStatus() -> StatusReport? { try? decode(as: StatusReport.self) }
}

/// Carries a response from the player's task back to the client's thread (ordered by the semaphore).
private final class ResponseBox: @unchecked Sendable {
    var value: ControlResponse?
}
