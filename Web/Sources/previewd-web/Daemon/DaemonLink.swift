#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CWebShim
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import PreviewCore
import Synchronization

/// The one connection to previewd's control socket. It is subscribed (position ticks only while a page
/// is open), carries every page's requests under ids of its own and routes the answers back, and
/// fans previewd's events out to every page. When previewd goes away it tells the pages, answers
/// requests with `unavailable`, and reconnects with a back-off that a page's request cuts short.
final class DaemonLink: Sendable {
    /// Requests sent to previewd and not answered yet: previewd reads no more past 16 on one
    /// connection (docs/PROTOCOL.md, "Framing"); two are left for the `subscribe` switches.
    static let inFlightLimit = 14
    /// Requests waiting here for previewd at most; more are refused at once.
    static let waitingLimit = 256

    private struct Pending: Sendable {
        let id: Int
        let line: ByteBuffer
    }

    private struct State {
        var channel: (any Channel)?
        var nextId = 1
        var waiters: [Int: CheckedContinuation<JSONValue, Never>] = [:]
        var inFlight = 0
        var backlog: [Pending] = []
        var pages: [ObjectIdentifier: PageOutbox] = [:]
        var up: Bool { channel != nil }
    }

    private let socketPath: String
    private let group: any EventLoopGroup
    private let state = Mutex(State())
    private let waker: Waker

    init(socketPath: String, group: any EventLoopGroup) {
        self.socketPath = socketPath
        self.group = group
        waker = Waker(loop: group.next())
    }

    // MARK: Pages

    /// Adds a page: it hears the link's state first, then every event. The first page turns
    /// position ticks on.
    func attach(_ page: PageOutbox) {
        // Under the lock, so the state comes before any event and the subscribe switches reach
        // previewd in the order the pages came and went.
        let up = state.withLock { state in
            state.pages[ObjectIdentifier(page)] = page
            page.send(Self.daemonEvent(up: state.up))
            if state.pages.count == 1, let channel = state.channel { Self.subscribe(on: channel, position: true) }
            return state.up
        }
        if !up { waker.wake() }
    }

    /// Removes a page; the last one turns position ticks off, so previewd-web sleeps while paused or idle.
    func detach(_ page: PageOutbox) {
        state.withLock { state in
            guard state.pages.removeValue(forKey: ObjectIdentifier(page)) != nil, state.pages.isEmpty,
                  let channel = state.channel else { return }
            Self.subscribe(on: channel, position: false)
        }
    }

    /// How many pages are open.
    var pageCount: Int { state.withLock { $0.pages.count } }

    // MARK: Requests

    /// Sends `cmd` with `args` to previewd and returns its answer object without the id
    /// (`{"ok": true, "result": …}` or `{"ok": false, "error": {…}}`); an `unavailable` error when
    /// previewd is not running, a `busy` one when too many requests wait.
    func call(_ cmd: String, args: [String: JSONValue]?) async -> JSONValue {
        await withCheckedContinuation { (continuation: CheckedContinuation<JSONValue, Never>) in
            enum Outcome { case sent, queued, down, busy, tooLong }
            let outcome = state.withLock { state -> Outcome in
                guard let channel = state.channel else { return .down }
                guard state.waiters.count < Self.waitingLimit else { return .busy }
                let id = state.nextId
                state.nextId = id == Int(JSONValue.maxExactInteger) ? 1 : id + 1
                guard let bytes = JSONLine.encode(ControlRequest(id: id, cmd: cmd, args: args)) else { return .busy }
                // previewd closes a connection that sends it a longer line (the one every page shares):
                // re-encoded with an id, a page's 64 KiB may grow past it.
                guard bytes.count - 1 <= LineFramer.defaultMaxLineLength else { return .tooLong }
                state.waiters[id] = continuation
                let line = ByteBuffer(bytes: bytes)
                if state.inFlight < Self.inFlightLimit {
                    state.inFlight += 1
                    // Enqueued under the lock, so lines reach previewd in the order ids were given.
                    channel.eventLoop.execute { channel.writeAndFlush(line, promise: nil) }
                    return .sent
                }
                state.backlog.append(Pending(id: id, line: line))
                return .queued
            }
            switch outcome {
            case .sent, .queued: break
            case .down:
                waker.wake()
                continuation.resume(returning: Self.failure("unavailable", "previewd is not running"))
            case .busy:
                continuation.resume(returning: Self.failure("busy", "too many requests are waiting for previewd"))
            case .tooLong:
                continuation.resume(returning: Self.failure("bad-request", "the request is longer than previewd takes (64 KiB)"))
            }
        }
    }

    // MARK: The connection

    /// Connects, and reconnects whenever previewd goes away, until the task is cancelled;
    /// `firstAttempt` is called once the first try has ended (connected or not).
    func run(firstAttempt: @Sendable () -> Void = {}) async {
        var delay = Duration.milliseconds(100)
        var first = true
        while !Task.isCancelled {
            let channel = await connect()
            if let channel {
                delay = .milliseconds(100)
                waker.reset()
                connected(channel)
            }
            if first { first = false; firstAttempt() }
            if let channel {
                try? await channel.closeFuture.get()
                disconnected(channel)
            }
            // With no page open nobody waits for previewd: try again when one opens or asks.
            await waker.wait(for: pageCount > 0 ? delay : nil)
            delay = min(delay * 2, .seconds(2))
        }
    }

    private func connect() async -> (any Channel)? {
        guard SocketCheck.folderProblem(socketPath: socketPath) == nil else { return nil }
        let bootstrap = ClientBootstrap(group: group).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                try channel.pipeline.syncOperations.addHandler(DaemonLineHandler(link: self))
            }
        }
        guard let channel = try? await bootstrap.connect(unixDomainSocketPath: socketPath).get() else { return nil }
        // As previewctl does: the process listening must be this user's, or it is not our previewd.
        let peer: cws_ucred? = try? await (channel as? any SocketOptionProvider)?
            .unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(cws_so_peercred())).get()
        guard let peer, peer.uid == getuid() else {
            try? await channel.close()
            return nil
        }
        return channel
    }

    private func connected(_ channel: any Channel) {
        // subscribe goes first, before any page's request can be written on this channel.
        state.withLock { state in
            Self.subscribe(on: channel, position: !state.pages.isEmpty)
            state.channel = channel
            let up = Self.daemonEvent(up: true)
            for page in state.pages.values { page.send(up) }
        }
    }

    /// Called when the connection closes (from its handler, and again from `run`): fails what waits.
    func disconnected(_ channel: any Channel) {
        let taken = state.withLock { state -> (waiters: [CheckedContinuation<JSONValue, Never>], pages: [PageOutbox])? in
            guard let current = state.channel, current === channel else { return nil }
            state.channel = nil
            state.inFlight = 0
            state.backlog.removeAll()
            let waiters = Array(state.waiters.values)
            state.waiters.removeAll()
            return (waiters, Array(state.pages.values))
        }
        guard let taken else { return }
        let down = Self.daemonEvent(up: false)
        for page in taken.pages { page.send(down) }
        let failure = Self.failure("unavailable", "previewd is not running")
        for waiter in taken.waiters { waiter.resume(returning: failure) }
    }

    /// `subscribe` with its answer ignored: it only changes whether position ticks come. Only
    /// enqueued on the channel's loop, so it may be called under the lock.
    private static func subscribe(on channel: any Channel, position: Bool) {
        let request = ControlRequest(id: 0, verb: .subscribe, args: ["position": .bool(position)])
        guard let bytes = JSONLine.encode(request) else { return }
        let line = ByteBuffer(bytes: bytes)
        channel.eventLoop.execute { channel.writeAndFlush(line, promise: nil) }
    }

    /// One line from previewd: an event goes to every page as it came; an answer to its waiter.
    func received(line: ByteBuffer) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.readableBytesView)),
              case .object(var object) = value else { return }
        if object["event"] != nil {
            let text = String(buffer: line)
            let pages = state.withLock { Array($0.pages.values) }
            for page in pages { page.send(text) }
            return
        }
        guard let id = object["id"]?.intValue, id != 0 else { return }
        object["id"] = nil
        let waiter = state.withLock { state -> CheckedContinuation<JSONValue, Never>? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            state.inFlight -= 1
            if !state.backlog.isEmpty, let channel = state.channel {
                let line = state.backlog.removeFirst().line
                state.inFlight += 1
                channel.eventLoop.execute { channel.writeAndFlush(line, promise: nil) }
            }
            return waiter
        }
        waiter?.resume(returning: .object(object))
    }

    // MARK: Messages of previewd-web's own

    /// `{"event": "daemon", "state": "up"|"down"}`, as the pages hear it.
    static func daemonEvent(up: Bool) -> String {
        up ? #"{"event":"daemon","state":"up"}"# : #"{"event":"daemon","state":"down"}"#
    }

    /// An answer object that failed with `code`.
    static func failure(_ code: String, _ message: String) -> JSONValue {
        .object(["ok": .bool(false), "error": .object(["code": .string(code), "message": .string(message)])])
    }
}
