import PreviewCore

/// MPD's protocol on the `LineServer` (doc/protocol.rst): the greeting `OK MPD 0.23.5`, each
/// request answered with its lines and `OK` or one `ACK`, command lists, `idle` held until a
/// subsystem it waits for changes (each change told once per client) and ended early by `noidle`,
/// a password when one is set. Commands go through `MPDCommandTable` to the engine's seam.
public final class MPDProtocol: LineProtocol, @unchecked Sendable {   // confined to the engine loop's thread
    /// The protocol version announced: Debian 12's MPD, whose commands previewd answers.
    public static let version = "0.23.5"
    /// A command list may hold this many bytes (MPD's max_command_list_size default).
    public static let maxListBytes = 2 << 20

    /// MPD's bounds: lines of 16 KiB (its input buffer: long filter expressions), clients quiet
    /// for 60 s closed (MPD's connection_timeout) unless they wait in `idle`.
    public static let defaultRules = LineRules(maxLineLength: 16 << 10, maxClients: 256, stallTimeout: 10, idleTimeout: 60,
                                               delivery: .inOrderUnlessWaiting, maxQueuedLines: 64)

    public let rules: LineRules
    /// The password clients give, if one is set.
    public let password: String?
    /// When the protocol was made (monotonic nanoseconds), for `stats`' uptime.
    let started = MonotonicClock.nanoseconds()
    /// The last `update` job's number (MPD's `updating_db`).
    var updateJob = 0
    /// `mixrampdb` and `mixrampdelay`, as set by any client.
    var mixRamp = MPDMixRamp()
    /// The database: what previewd has met, renewed as it changes.
    private(set) lazy var library = MPDLibrary(engine: engine, interval: renewalInterval) { [unowned self] in self.changed(.database) }
    private let renewalInterval: Double
    /// Time spent playing, for `stats`.
    private var playTime = MPDPlayTime()
    private let engine: EngineHandle
    private var sessions: [UInt64: MPDSession] = [:]
    private var observer: EventHub.Observer?
    /// Shutting down: idles end with the connection, new lines are not carried out.
    private var stopping = false

    /// The protocol steering `engine`; `password` required of every client before more than
    /// `ping`, `password`, `close`, `commands` and `notcommands`.
    /// The database renews itself at most once per `renewalInterval` seconds (MPD's clients reload
    /// their whole library at each `database` event).
    public init(engine: EngineHandle, password: String?, rules: LineRules = MPDProtocol.defaultRules, renewalInterval: Double = 60) {
        self.engine = engine
        self.password = password
        self.rules = rules
        self.renewalInterval = renewalInterval
    }

    /// Hears the engine's events from now on (call on the loop).
    func startObserving() {
        guard observer == nil else { return }
        observer = engine.events.addObserver { [unowned self] event in
            let changed = MPDSubsystems(event)
            if !changed.isEmpty { self.changed(changed) }
            switch event {
            case .library, .lists, .track: self.library.metChanged()   // searched, marked, heard
            case .state(let state, _, _): self.playTime.state(state, now: MonotonicClock.nanoseconds())
            default: break
            }
        }
    }

    /// Hears no more, and lets go of the clients waiting in idle so the server can close them at
    /// once: they see the connection end, as MPD's clients do when it stops (call on the loop).
    func stop() {
        if let observer { engine.events.removeObserver(observer) }
        observer = nil
        stopping = true
        library.stop()
        for session in sessions.values where session.idleMask != nil {
            session.idleMask = nil
            guard let connection = session.connection else { continue }
            connection.isWaiting = false
            connection.answer([])
            connection.close()
        }
    }

    /// Clients connected.
    public var clientCount: Int { sessions.count }

    public func greeting(for connection: LineConnection) -> [UInt8] {
        _ = session(for: connection)
        return Array("OK MPD \(Self.version)\n".utf8)
    }

    public func received(_ line: [UInt8], on connection: LineConnection) {
        let session = session(for: connection)
        if stopping {
            connection.answer([])
            return connection.close()
        }
        if session.idleMask != nil {
            // Waiting in idle, only noidle may come (MPD closes a client that sends anything else).
            if Self.trimmed(line) == "noidle" {
                endIdle(session, force: true)
                connection.answer([])
            } else {
                connection.answer([])
                connection.close()
            }
            return
        }
        if Self.looksLikeHTTP(line) {
            connection.answer([])
            return connection.close()
        }
        if var list = session.list {
            if Self.trimmed(line) == "command_list_end" {
                session.list = nil
                return run(list.lines, okEach: list.okEach, session: session, connection: connection)
            }
            list.bytes += line.count + 1
            guard list.bytes <= Self.maxListBytes else {
                session.list = nil
                connection.answer(MPDError(.arg, "command list is too long (more than \(Self.maxListBytes) bytes)").line(index: list.lines.count, command: ""))
                return connection.close()
            }
            list.lines.append(line)
            session.list = list
            return connection.answer([])
        }
        let request: MPDRequest
        let command: MPDCommand
        do throws(MPDError) {
            request = try MPDRequest(parsing: line)
            command = try MPDCommandTable.command(request.name, arguments: request.arguments.count, may: session.may)
        } catch {
            let name = (try? MPDRequest(parsing: line).name).flatMap { MPDCommandTable.has($0) ? $0 : nil } ?? ""
            return connection.answer(error.line(index: 0, command: name))
        }
        switch command.name {
        case "command_list_begin", "command_list_ok_begin":
            session.list = MPDSession.CommandList(okEach: command.name == "command_list_ok_begin")
            connection.answer([])
        case "command_list_end":
            // Outside a list MPD does not know the word (its list builder takes it, not its table).
            connection.answer(MPDError(.unknown, "unknown command \"command_list_end\"").line(index: 0, command: ""))
        case "idle":
            do throws(MPDError) {
                session.idleMask = try MPDSubsystems(names: request.arguments)
                connection.isWaiting = true
                endIdle(session, force: false)
            } catch {
                connection.answer(error.line(index: 0, command: "idle"))
            }
        case "noidle":
            connection.answer([])   // not waiting: nothing to end (MPD ignores it too)
        case "close":
            connection.answer([])
            connection.close()
        default:
            run([line], okEach: false, session: session, connection: connection)
        }
    }

    public func farewell(_ reason: LineServer.Closing, for connection: LineConnection) -> [UInt8] {
        switch reason {
        case .tooLong(let limit): return MPDError(.arg, "line longer than \(limit) bytes").line(index: 0, command: "")
        case .stalled: return []
        case .full: return MPDError(.system, "too many clients").line(index: 0, command: "")
        }
    }

    public func disconnected(_ connection: LineConnection) {
        sessions[connection.serial] = nil
        connection.context = nil
    }

    /// `changed` happened: every client hears of it once, at once if it waits in idle for it.
    func changed(_ changed: MPDSubsystems) {
        for session in sessions.values { self.changed(changed, for: session) }
    }

    /// `changed` happened for `session` alone (a message waits for it).
    func changed(_ changed: MPDSubsystems, for session: MPDSession) {
        session.pending.formUnion(changed)
        endIdle(session, force: false)
    }

    /// Every channel some client is subscribed to, sorted.
    var channels: [String] {
        Set(sessions.values.flatMap(\.mailbox.channels)).sorted()
    }

    /// Delivers `text` to every client subscribed to `channel`; false when none is.
    func send(_ text: String, on channel: String) -> Bool {
        var sent = false
        for session in sessions.values {
            guard case .delivered(let first) = session.mailbox.deliver(text, on: channel) else { continue }
            sent = true
            if first { changed(.message, for: session) }
        }
        return sent
    }

    /// Seconds previewd has played since it started.
    var secondsPlayed: Int { playTime.seconds(now: MonotonicClock.nanoseconds()) }

    /// Answers a waiting idle with the changes it waits for, if there are any (or `force`: noidle).
    private func endIdle(_ session: MPDSession, force: Bool) {
        guard let mask = session.idleMask, let connection = session.connection else { return }
        let flags = session.pending.intersection(mask)
        guard force || !flags.isEmpty else { return }
        session.pending.subtract(flags)
        session.idleMask = nil
        connection.isWaiting = false
        connection.answer(flags.changedLines.bytes + Array("OK\n".utf8))
    }

    /// Carries out `lines` in order on the loop and answers them with one reply: each command's
    /// lines (and `list_OK` with `okEach`), then `OK`; the first failure ends it with its `ACK`.
    private func run(_ lines: [[UInt8]], okEach: Bool, session: MPDSession, connection: LineConnection) {
        let engine = self.engine
        Task(executorPreference: engine.loop) {
            if lines.count > 1, let refused = await MPDListCheck.refusal(lines, session: session, engine: engine) {
                return connection.answer(refused.error.line(index: refused.index, command: refused.name))
            }
            var out: [UInt8] = []
            var closes = false
            for (i, line) in lines.enumerated() {
                var name = ""
                do throws(MPDError) {
                    let request = try MPDRequest(parsing: line)
                    if MPDCommandTable.has(request.name) { name = request.name }
                    let command = try MPDCommandTable.command(request.name, arguments: request.arguments.count, may: session.may)
                    if command.name == "close" { closes = true; break }
                    guard !["idle", "noidle", "command_list_begin", "command_list_ok_begin", "command_list_end"].contains(command.name) else {
                        throw MPDError(.arg, "\(command.name) is not allowed in a command list")
                    }
                    let call = MPDCall(name: command.name, arguments: request.arguments, session: session, engine: engine, server: self)
                    try await command.handler(call)
                    out += call.response.bytes
                    if okEach { out += Array("list_OK\n".utf8) }
                } catch {
                    connection.answer(out + error.line(index: i, command: name))
                    return
                }
            }
            connection.answer(closes ? out : out + Array("OK\n".utf8))
            if closes { connection.close() }
        }
    }

    private func session(for connection: LineConnection) -> MPDSession {
        if let session = connection.context as? MPDSession { return session }
        let session = MPDSession(connection: connection, authorized: password == nil)
        connection.context = session
        sessions[connection.serial] = session
        return session
    }

    /// The line without surrounding blanks, as text.
    static func trimmed(_ line: [UInt8]) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }
        guard let first = line.firstIndex(where: { !blank($0) }), let last = line.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: line[first...last], as: UTF8.self)
    }

    /// A request line of HTTP (a browser or a scanner on MPD's port): MPD closes the connection.
    static func looksLikeHTTP(_ line: [UInt8]) -> Bool {
        let text = String(decoding: line.prefix(2048), as: UTF8.self)
        let methods = ["GET ", "POST ", "HEAD ", "PUT ", "OPTIONS ", "DELETE ", "CONNECT ", "PATCH "]
        return methods.contains(where: text.hasPrefix) && text.contains(" HTTP/")
    }
}
