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
public final class ControlServer {
    /// The socket's path.
    public let path: String
    /// At most this many clients at once; more are refused.
    public let maxClients = 128
    private let handler: @Sendable (ControlRequest) async -> ControlResponse
    private let events: EventHub?
    private let log: Log
    private let lock = Lock()
    private var listener: Int32 = -1                 // protected by lock
    private var clients: Set<Int32> = []             // protected by lock
    private var stopped = false                      // protected by lock

    /// A server on `path` answering with `handler`; `subscribe` streams `events`.
    public init(path: String, log: Log = Log(), events: EventHub? = nil,
                handler: @escaping @Sendable (ControlRequest) async -> ControlResponse) {
        self.path = path
        self.log = log
        self.events = events
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
        startThread { [self] in acceptLoop(fd) }
    }

    /// The socket's folder must be ours (or root's), and not writable by others unless sticky (/tmp):
    /// a /tmp/previewd-UID made by someone else could hand them our socket.
    static func checkOwnership(of directory: String) throws(ControlServerError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw .system(call: "lstat", errno: errno, path: directory) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .unsafeDirectory(directory, why: "not a folder (a symbolic link?)") }
        guard info.st_uid == getuid() || info.st_uid == 0 else {
            throw .unsafeDirectory(directory, why: "it belongs to uid \(info.st_uid)")
        }
        if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
            throw .unsafeDirectory(directory, why: "others may write to it")
        }
    }

    /// Stops accepting, disconnects every client and removes the socket file.
    public func stop() {
        lock.lock()
        let fd = listener
        listener = -1
        stopped = true
        let open = clients
        lock.unlock()
        if fd >= 0 {
            // shutdown wakes the accept thread, which closes the descriptor itself: closing it here
            // could hand its number to a new socket while that thread still calls accept on it.
            shutdown(fd, Int32(SHUT_RDWR))
            unlink(path)
        }
        for client in open { shutdown(client, Int32(SHUT_RDWR)) }
    }

    /// After `stop`: waits up to `seconds` for the clients' threads to finish the answers they are
    /// writing, so no request is still being handled when the process exits.
    public func waitUntilIdle(seconds: Double) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        while lock.withLock({ !clients.isEmpty }), MonotonicClock.nanoseconds() < deadline { usleep(10_000) }
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
            let admitted = clients.count < maxClients && !done
            if admitted { clients.insert(client) }
            lock.unlock()
            if done {
                close(client)
                return
            }
            guard admitted else {
                _ = UnixSocket.writeAll(client, Self.encode(.failure(id: nil, ControlError(.internal, "too many clients"))))
                close(client)
                continue
            }
            // A client that stops reading cannot hold a session thread forever.
            UnixSocket.setTimeouts(client, seconds: 5)
            startThread { [self] in serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.lock(); clients.remove(fd); lock.unlock()
            close(fd)
        }
        var framer = LineFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return }
            let lines: [[UInt8]]
            do {
                lines = try framer.feed(buffer[..<n])
            } catch {
                let message = "request line longer than \(framer.maxLineLength) bytes; closing"
                _ = UnixSocket.writeAll(fd, Self.encode(.failure(id: nil, ControlError(.tooLong, message))))
                return
            }
            for line in lines where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line))
                if let request, request.cmd == "subscribe" {
                    do {
                        if case .subscribe(let position) = try ControlCommand(request) {
                            streamEvents(fd, id: request.id, position: position)
                            return
                        }
                    } catch {
                        guard UnixSocket.writeAll(fd, Self.encode(.failure(id: request.id, error))) else { return }
                        continue
                    }
                }
                guard UnixSocket.writeAll(fd, Self.encode(answer(line, request))) else { return }
            }
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
