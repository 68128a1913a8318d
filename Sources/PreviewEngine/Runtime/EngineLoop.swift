import CPreviewLinux
import Glibc
import Synchronization

/// The engine's one event loop (swift-nio's EventLoop, MPD's EventLoop): a thread that sleeps in
/// `poll` until a watched descriptor is ready, a timer is due, or work arrives from another thread
/// (an eventfd wakes it). It is also the Swift executor of the player and of every task previewd
/// starts, so all engine state lives on this one thread and the process has no thread pool: nothing
/// wakes while nothing happens.
///
/// Descriptors, timers and `run` belong to the loop's thread (or to the thread that will run it,
/// before it does); `enqueue`, `execute` and `stop` may be called from any thread.
public final class EngineLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {   // watchers, timers: the loop thread only; inbox locked
    /// What a watcher is told: the descriptor's `revents`.
    public typealias Readiness = Int16

    /// Work handed over from other threads: Swift jobs and closures, in order.
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }
    private struct Inbox {
        var work: [Work] = []
        var stopping = false
        /// `run` has returned: what is handed over now is dropped (it would hold what it captured forever).
        var ended = false
    }

    /// Taken by every thread that hands work over (see `Locked` for why not a Mutex).
    private let inbox = Locked(Inbox())
    private let wakeFD: Int32
    private let owner = Atomic<UInt>(0)   // pthread_t of the thread in `run`
    // The loop thread's own state.
    private var watchers: [Int32: (events: Int16, handler: (Readiness) -> Void)] = [:]
    private var timers: [Timer] = []
    private var nextTimerID: UInt64 = 0

    /// A due time and what to run then.
    private struct Timer {
        var id: UInt64
        var deadline: UInt64   // CLOCK_MONOTONIC nanoseconds
        var body: () -> Void
    }

    /// Cancels a timer made by `after`.
    public struct TimerID: Hashable, Sendable { fileprivate let value: UInt64 }

    /// A loop; call `run` on the thread that is to be the loop's.
    public init() {
        wakeFD = cpl_eventfd()
        precondition(wakeFD >= 0, "eventfd failed: \(errno)")
    }

    deinit { close(wakeFD) }

    // MARK: Any thread

    /// Runs `body` on the loop's thread, after what was handed over before it.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        hand(.closure(body))
    }

    /// Makes `run` return once the work handed over before this call is done.
    public func stop() {
        inbox.withLock { $0.stopping = true }
        cpl_eventfd_signal(wakeFD)
    }

    /// True on the loop's thread.
    public var inLoop: Bool { owner.load(ordering: .acquiring) == pthread_self() }

    private func hand(_ work: Work) {
        let first = inbox.withLock { inbox -> Bool in
            guard !inbox.ended else { return false }
            inbox.work.append(work)
            return inbox.work.count == 1
        }
        if first { cpl_eventfd_signal(wakeFD) }   // one wake-up per batch
    }

    // MARK: Executor

    public func enqueue(_ job: consuming ExecutorJob) {
        hand(.job(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` succeed in the loop's own callbacks (descriptors, timers), where no job runs.
    public func checkIsolated() {
        precondition(inLoop, "not on the engine loop's thread")
    }

    // MARK: Loop thread

    /// Calls `handler` on the loop's thread whenever `fd` is ready for `events` (POLLIN, POLLOUT);
    /// replaces an earlier watcher of `fd`.
    public func watch(_ fd: Int32, events: Int16, _ handler: @escaping (Readiness) -> Void) {
        watchers[fd] = (events, handler)
    }

    /// Changes what `fd` is watched for.
    public func setEvents(_ fd: Int32, _ events: Int16) {
        watchers[fd]?.events = events
    }

    /// Stops watching `fd` (before it is closed).
    public func unwatch(_ fd: Int32) {
        watchers[fd] = nil
    }

    /// Runs `body` on the loop's thread after `seconds`.
    @discardableResult
    public func after(_ seconds: Double, _ body: @escaping () -> Void) -> TimerID {
        nextTimerID += 1
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(0, seconds) * 1e9)
        let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
        timers.insert(Timer(id: nextTimerID, deadline: deadline, body: body), at: index)
        return TimerID(value: nextTimerID)
    }

    /// Cancels a timer that has not fired.
    public func cancel(_ timer: TimerID) {
        timers.removeAll { $0.id == timer.value }
    }

    /// Runs the loop on the calling thread until `stop`; then forgets its watchers and timers, and
    /// drops work handed over later (their closures may hold what holds the loop).
    public func run() {
        owner.store(pthread_self(), ordering: .releasing)
        defer {
            watchers.removeAll()
            timers.removeAll()
            inbox.withLock { $0.ended = true; $0.work.removeAll() }
            owner.store(0, ordering: .releasing)
        }
        var fds: [pollfd] = []
        while true {
            let (work, stopping) = inbox.withLock { inbox -> ([Work], Bool) in
                defer { inbox.work.removeAll(keepingCapacity: true) }
                return (inbox.work, inbox.stopping)
            }
            for item in work {
                switch item {
                case .job(let job): job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
                case .closure(let body): body()
                }
            }
            if stopping, inbox.withLock({ $0.work.isEmpty }) { return }
            runDueTimers()
            if !inbox.withLock({ $0.work.isEmpty }) { continue }   // a timer or a job handed more work

            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
            for (fd, watcher) in watchers { fds.append(pollfd(fd: fd, events: watcher.events, revents: 0)) }
            let timeout = timers.first.map { Int32(clamping: ($0.deadline.saturatingSubtract(MonotonicClock.nanoseconds()) + 999_999) / 1_000_000) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            guard ready > 0 else { continue }   // a timer is due, or EINTR
            if fds[0].revents != 0 { cpl_eventfd_drain(wakeFD) }
            for entry in fds.dropFirst() where entry.revents != 0 {
                // Looked up again: an earlier handler in this round may have dropped or replaced it.
                watchers[entry.fd]?.handler(entry.revents)
            }
        }
    }

    private func runDueTimers() {
        let now = MonotonicClock.nanoseconds()
        while let first = timers.first, first.deadline <= now {
            timers.removeFirst()
            first.body()
        }
    }
}

private extension UInt64 {
    func saturatingSubtract(_ other: UInt64) -> UInt64 { self > other ? self - other : 0 }
}
