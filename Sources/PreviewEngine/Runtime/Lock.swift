import CPreviewLinux
import Glibc

/// A pthread mutex (FoundationEssentials has no NSLock; `Mutex` cannot guard several fields that
/// live outside it). Allocated once, so its address never moves.
public final class Lock: @unchecked Sendable {   // a pthread mutex, thread-safe by definition
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// An unlocked mutex.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the mutex, waiting for it.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Gives the mutex back.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the mutex.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}

/// A value behind a pthread mutex: `Synchronization.Mutex`'s shape, for a lock every thread takes.
/// Mutex waits on a futex that ThreadSanitizer cannot see, so it reports the guarded value as raced
/// between threads that only ever touch it holding the lock; a pthread mutex it does see.
public final class Locked<Value>: @unchecked Sendable {   // `value` is only touched holding `lock`
    private let lock = Lock()
    private var value: Value

    /// `value`, guarded.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}

/// A mutex with a condition variable on CLOCK_MONOTONIC (a wall-clock change cannot stretch a wait).
public final class Condition: @unchecked Sendable {   // a pthread mutex and condition variable
    private let lockObject = Lock()
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    /// A condition with its own mutex.
    public init() {
        cond = .allocate(capacity: 1)
        cond.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        cond.deallocate()
    }

    /// Takes the mutex.
    public func lock() { lockObject.lock() }

    /// Gives the mutex back.
    public func unlock() { lockObject.unlock() }

    /// Wakes one waiter. Call holding the mutex.
    public func signal() { pthread_cond_signal(cond) }

    /// Wakes every waiter. Call holding the mutex.
    public func broadcast() { pthread_cond_broadcast(cond) }

    /// Waits (holding the mutex) until woken.
    public func wait() { pthread_cond_wait(cond, lockObject.mutex) }

    /// Waits (holding the mutex) until woken or `seconds` pass; false on timeout.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = Int(seconds)
        var nanoseconds = Int(deadline.tv_nsec) + Int((seconds - Double(whole)) * 1e9)
        deadline.tv_sec += whole + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        return pthread_cond_timedwait(cond, lockObject.mutex, &deadline) == 0
    }
}

/// Starts `body` on a new detached thread called `name` (top and /proc/PID/task/*/comm show its
/// first 15 bytes; a thread would otherwise carry its creator's name).
/// FoundationEssentials has no Thread.
public func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
        let work = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
        cpl_set_thread_name(work.name)
        work.body()
        return nil
    }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    pthread_detach(thread)
}

private final class ThreadBody {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
}
