import CPreviewLinux
import Glibc

/// A pthread mutex (FoundationEssentials has no NSLock; `Mutex` cannot guard several fields that
/// live outside it). Allocated once, so its address never moves.
public final class Lock: @unchecked Sendable {   // a pthread mutex, thread-safe by definition
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

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
