#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A token bucket that keeps previewd under Apple's limit (about 20 calls a minute): `capacity`
/// calls at once, refilled at `perMinute`. Thread-safe.
public final class RateGovernor: Sendable {
    /// Calls allowed per minute on average.
    public let perMinute: Int
    private let capacity: Double
    private let now: @Sendable () -> Double
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }
    private let bucket: Locked<Bucket>

    /// A full bucket of `perMinute` tokens; `now` gives seconds (monotonic) and is replaceable in tests.
    public init(perMinute: Int = 20, now: @escaping @Sendable () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }) {
        self.perMinute = max(1, perMinute)
        capacity = Double(max(1, perMinute))
        self.now = now
        bucket = Locked(Bucket(tokens: Double(max(1, perMinute)), updated: now()))
    }

    /// Takes a token: nil when granted, else the seconds until one is free (nothing is taken).
    public func take() -> Double? {
        let t = now()
        return bucket.withLock { b -> Double? in
            b.tokens = min(capacity, b.tokens + (t - b.updated) * Double(perMinute) / 60)
            b.updated = t
            if b.tokens >= 1 {
                b.tokens -= 1
                return nil
            }
            return (1 - b.tokens) * 60 / Double(perMinute)
        }
    }
}
