import Glibc

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
