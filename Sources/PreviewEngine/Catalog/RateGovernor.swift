#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A token bucket that keeps previewd under Apple's limit (about 20 calls a minute): `capacity`
/// calls at once, refilled at `perMinute`. Thread-safe.
public final class RateGovernor: @unchecked Sendable {   // state guarded by `lock`
    /// Calls allowed per minute on average.
    public let perMinute: Int
    private let capacity: Double
    private let now: @Sendable () -> Double
    private let lock = Lock()
    private var tokens: Double
    private var updated: Double

    /// A full bucket of `perMinute` tokens; `now` gives seconds (monotonic) and is replaceable in tests.
    public init(perMinute: Int = 20, now: @escaping @Sendable () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }) {
        self.perMinute = max(1, perMinute)
        capacity = Double(max(1, perMinute))
        self.now = now
        tokens = capacity
        updated = now()
    }

    /// Takes a token: nil when granted, else the seconds until one is free (nothing is taken).
    public func take() -> Double? {
        lock.lock(); defer { lock.unlock() }
        let t = now()
        tokens = min(capacity, tokens + (t - updated) * Double(perMinute) / 60)
        updated = t
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return (1 - tokens) * 60 / Double(perMinute)
    }
}
