/// A value behind a pthread mutex, `Synchronization.Mutex`'s shape: the engine's one lock for values.
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
