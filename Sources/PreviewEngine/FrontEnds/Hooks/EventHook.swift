#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CPreviewLinux
import Glibc
import PreviewCore

/// `previewd --on-event PROGRAM`: runs the user's program on a track change, a state change and an
/// error, with the details in environment variables (`PREVIEWD_EVENT`, `PREVIEWD_TITLE`, …), never in
/// arguments or a shell string: the program is executed directly with itself as its only argument,
/// so no title can become a command. One run at a time per kind of event (a newer event of a kind
/// that is running waits, replacing any older one waiting); a run that outlives `timeout` is ended
/// (its whole process group); what it prints goes to previewd's log. Playback never waits for it.
/// A front-end that only listens. Lives on the engine loop: exits and output are watched there (a
/// pidfd and a pipe), the timeout is a loop timer.
public final class EventHook: FrontEnd, @unchecked Sendable {   // confined to the engine loop's thread
    /// What an event hook is run for.
    public enum Kind: String, Sendable { case track, state, error }

    /// The program run.
    public let program: String
    /// Seconds a run may take before it is ended.
    public let timeout: Double
    private let engine: EngineHandle
    private var loop: EngineLoop { engine.loop }
    private var log: Log { engine.log }
    private var observer: EventHub.Observer?
    private var running: [Kind: Run] = [:]
    private var waiting: [Kind: [String: String]] = [:]
    private var current: (index: Int, track: Track)?

    /// Bytes of a run's output logged at most; the rest is counted, not kept.
    static let maxOutputBytes = 16 << 10

    private final class Run {
        let pid: pid_t
        let exited: Int32    // pidfd
        var output: Int32    // the pipe's read end, -1 once closed
        var pending: [UInt8] = []
        var logged = 0
        var timer: EngineLoop.TimerID?
        var timedOut = false
        init(pid: pid_t, exited: Int32, output: Int32) {
            self.pid = pid
            self.exited = exited
            self.output = output
        }
    }

    /// A hook running `program` for `engine`'s events, each run ended after `timeout` seconds.
    public init(program: String, engine: EngineHandle, timeout: Double = 10) {
        self.program = program
        self.engine = engine
        self.timeout = timeout
    }

    /// Hears the engine's events from now on.
    public func start() {
        loop.execute { [self] in
            observer = engine.events.addObserver { [unowned self] event in handle(event) }
        }
    }

    /// Runs the program for `event` if it is a kind the hook is for (on the loop).
    public func handle(_ event: ControlEvent) {
        switch event {
        case .track(let index, _, let track, _):
            current = (index, track)
            launch(.track, details(index: index))
        case .state(let state, let index, _):
            launch(.state, details(index: index) + ["PREVIEWD_STATE": state.rawValue])
        case .error(let message):
            launch(.error, details(index: current?.index) + ["PREVIEWD_MESSAGE": message])
        default:
            return
        }
    }

    /// Hears no more events and ends every run (at shutdown).
    public func stop() {
        if let observer { engine.events.removeObserver(observer) }
        observer = nil
        for run in running.values { kill(-run.pid, SIGTERM) }
        waiting = [:]
    }

    // MARK: Private

    /// The current track's details, when `index` is the one the last track event named.
    private func details(index: Int?) -> [String: String?] {
        guard let index, let current, current.index == index else { return ["PREVIEWD_INDEX": index.map(String.init)] }
        let t = current.track
        return ["PREVIEWD_INDEX": String(index), "PREVIEWD_TITLE": t.trackName ?? t.collectionName, "PREVIEWD_ARTIST": t.artistName,
                "PREVIEWD_ALBUM": t.collectionName, "PREVIEWD_TRACK_ID": t.trackId.map(String.init),
                "PREVIEWD_URL": t.trackViewUrl ?? t.collectionViewUrl, "PREVIEWD_PREVIEW_URL": t.previewUrl,
                "PREVIEWD_ARTWORK_URL": t.artworkUrl100,
                // What plays is the preview (PreviewLength); the song's own length is beside it.
                "PREVIEWD_DURATION_MS": String(PreviewLength.estimateMs(t)), "PREVIEWD_SONG_MS": t.trackTimeMillis.map(String.init)]
    }

    private func launch(_ kind: Kind, _ details: [String: String?]) {
        var variables = details.compactMapValues { $0 }
        variables["PREVIEWD_EVENT"] = kind.rawValue
        guard running[kind] == nil else {
            waiting[kind] = variables   // the newest of its kind runs once this one has ended
            return
        }
        spawn(kind, variables)
    }

    private func spawn(_ kind: Kind, _ variables: [String: String]) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            log(.warning, "event hook not run: pipe: \(String(cString: strerror(errno)))")
            return
        }
        // Close-on-exec (the child gets its end through dup2, and closes every other descriptor);
        // our end never blocks the loop.
        pipeEnds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(pipeEnds[0], F_SETFL, O_NONBLOCK)
        // The process's own environment (PATH, DISPLAY, DBUS_SESSION_BUS_ADDRESS for notify-send)
        // without any PREVIEWD_ variable of its own (nor systemd's LISTEN_ ones), then the event's;
        // NUL cannot be passed, so it is dropped.
        let inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PREVIEWD_") && !$0.key.hasPrefix("LISTEN_") }
        let entries = (inherited.map { "\($0.key)=\($0.value)" } + variables.map { "\($0.key)=\($0.value)" })
            .map { String($0.filter { $0 != "\0" }) }
        var pid: pid_t = 0
        let result = withCStrings([program]) { argv in
            withCStrings(entries) { envp in cpl_spawn(program, argv, envp, pipeEnds[1], &pid) }
        }
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            log(.warning, "event hook \(program) could not be run: \(String(cString: strerror(result)))")
            return
        }
        let exited = cpl_pidfd_open(pid)
        guard exited >= 0 else {   // cannot happen on Linux ≥ 5.3; never leave a child unwatched
            kill(-pid, SIGKILL)
            waitpid(pid, nil, 0)
            close(pipeEnds[0])
            return
        }
        let run = Run(pid: pid, exited: exited, output: pipeEnds[0])
        running[kind] = run
        loop.watch(run.output, events: Int16(POLLIN)) { [unowned self] _ in drain(run, kind) }
        loop.watch(exited, events: Int16(POLLIN)) { [unowned self] _ in ended(run, kind) }
        run.timer = loop.after(timeout) { [unowned self] in
            run.timedOut = true
            log(.warning, "event hook \(kind.rawValue): \(program) still running after \(timeout) s; ended")
            kill(-run.pid, SIGKILL)   // its whole process group: a script's children too
        }
    }

    /// Reads what the run printed; logs whole lines.
    private func drain(_ run: Run, _ kind: Kind) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while run.output >= 0 {
            let n = read(run.output, &buffer, buffer.count)
            if n > 0 {
                let room = max(0, Self.maxOutputBytes - run.logged - run.pending.count)
                run.pending += buffer.prefix(min(n, room))
                run.logged += n - min(n, room)   // counted as dropped past the limit
                logLines(run, kind, final: false)
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                logLines(run, kind, final: true)
                loop.unwatch(run.output)
                close(run.output)
                run.output = -1
            } else {
                return
            }
        }
    }

    private func logLines(_ run: Run, _ kind: Kind, final: Bool) {
        while let newline = run.pending.firstIndex(of: 10) {
            log(.info, "event hook \(kind.rawValue): \(String(decoding: run.pending[..<newline], as: UTF8.self))")
            run.logged += newline + 1
            run.pending.removeFirst(newline + 1)
        }
        if final, !run.pending.isEmpty {
            log(.info, "event hook \(kind.rawValue): \(String(decoding: run.pending, as: UTF8.self))")
            run.pending = []
        }
    }

    /// The run ended: reaps it, says how if it failed, and starts the one waiting.
    private func ended(_ run: Run, _ kind: Kind) {
        var status: Int32 = 0
        guard waitpid(run.pid, &status, WNOHANG) == run.pid else { return }
        loop.unwatch(run.exited)
        close(run.exited)
        if let timer = run.timer { loop.cancel(timer) }
        drain(run, kind)
        if run.output >= 0 {   // a child it left behind may hold the pipe: what is there is logged, the rest dropped
            logLines(run, kind, final: true)
            loop.unwatch(run.output)
            close(run.output)
            run.output = -1
        }
        let code = (status >> 8) & 0xff, signal = status & 0x7f
        if signal != 0, !run.timedOut {
            log(.warning, "event hook \(kind.rawValue): \(program) was killed by signal \(signal)")
        } else if signal == 0, code != 0 {
            log(.warning, "event hook \(kind.rawValue): \(program) exited with status \(code)")
        }
        running[kind] = nil
        if let next = waiting.removeValue(forKey: kind) { spawn(kind, next) }
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

private func + (lhs: [String: String?], rhs: [String: String?]) -> [String: String?] {
    lhs.merging(rhs) { _, new in new }
}
