import Glibc
import PreviewCore

/// Keeps the MPD front-end's database (`MPDDatabase`) and renews it: made at the first command that
/// reads it, renewed by `update` at once and by itself when what previewd met has changed (the
/// engine's `library`, `lists` and `track` events), at most once per `interval` (a minute), a
/// second after the change so a burst is one renewal. A renewal that finds the same is no change;
/// one that changes it moves `db_update` and tells every client `database`. Lives on the engine
/// loop; the timer is the loop's, so a daemon at rest does not wake.
final class MPDLibrary: @unchecked Sendable {   // confined to the engine loop's thread
    /// The database now; nil until first made.
    private(set) var current: MPDDatabase?
    private let engine: EngineHandle
    private let interval: Double
    /// Told when a renewal changed the database.
    private let renewed: () -> Void
    /// The renewal under way: callers wait for the same one.
    private var renewal: Task<Bool, Never>?
    private var timer: EngineLoop.TimerID?
    /// When the last renewal ended (monotonic nanoseconds).
    private var lastRenewal: UInt64?
    private var stopped = false

    /// A library renewed from `engine` at most once per `interval` seconds by itself; `renewed`
    /// is called (on the loop) after each renewal that changed it.
    init(engine: EngineHandle, interval: Double = 60, renewed: @escaping () -> Void) {
        self.engine = engine
        self.interval = interval
        self.renewed = renewed
    }

    /// The database, made now if it was not yet.
    func database() async -> MPDDatabase {
        if let current { return current }
        _ = await renew()
        return current ?? .empty
    }

    /// Makes the database again from what previewd met now; true when it changed.
    @discardableResult
    func renew() async -> Bool {
        await startRenewal().value
    }

    /// Starts a renewal now, or joins the one under way (`isRenewing` from now until it ends).
    @discardableResult
    func startRenewal() -> Task<Bool, Never> {
        if let renewal { return renewal }
        let first = current == nil
        let task = Task(executorPreference: engine.loop) { [self] () -> Bool in
            let changed = await make()
            renewal = nil
            lastRenewal = MonotonicClock.nanoseconds()
            if changed, !first { renewed() }   // the first is no change: no client saw a database before
            return changed
        }
        renewal = task
        return task
    }

    /// A renewal is under way (MPD's `status` says `updating_db` meanwhile).
    var isRenewing: Bool { renewal != nil }

    /// What previewd met may have changed: a renewal is due, a second from now, or a minute after
    /// the last one if that is later. One is pending at most.
    func metChanged() {
        guard !stopped, timer == nil, current != nil else { return }   // nothing to renew before it is first asked for
        let sinceLast = lastRenewal.map { Double(MonotonicClock.nanoseconds() - $0) / 1e9 } ?? interval
        let wait = max(min(1, interval), interval - sinceLast)
        timer = engine.loop.after(wait) { [weak self] in
            guard let self else { return }
            self.timer = nil
            Task(executorPreference: self.engine.loop) { await self.renew() }
        }
    }

    /// No more renewals by itself (shutdown).
    func stop() {
        stopped = true
        if let timer { engine.loop.cancel(timer) }
        timer = nil
    }

    private func make() async -> Bool {
        guard case .library(let report)? = try? await engine.perform(.library) else { return false }
        if let current, current.fingerprint == MPDDatabase.Fingerprint(report) { return false }
        // db_update moves with every change, even two in one second (clients compare it).
        let updated = max(Int(time(nil)), (current?.updated ?? 0) + 1)
        current = MPDDatabase(report, updated: updated)
        return true
    }
}
