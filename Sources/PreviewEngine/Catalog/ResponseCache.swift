#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers of the API kept in memory by their full URL for `ttl` seconds, so repeating a search
/// costs no call. At most `capacity` entries; the oldest go first. Thread-safe.
public final class ResponseCache: @unchecked Sendable {   // entries guarded by `lock`
    /// Seconds an answer stays fresh.
    public let ttl: Double
    /// Entries kept at most.
    public let capacity: Int
    private let now: @Sendable () -> Double
    private let lock = Lock()
    private var entries: [String: (data: Data, stored: Double)] = [:]

    /// A cache of `capacity` answers fresh for `ttl` seconds (0 disables it).
    public init(ttl: Double = 300, capacity: Int = 64, now: @escaping @Sendable () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }) {
        self.ttl = ttl
        self.capacity = capacity
        self.now = now
    }

    /// The fresh answer for `key`, if any.
    public func get(_ key: String) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard let entry = entries[key] else { return nil }
        guard now() - entry.stored < ttl else {
            entries[key] = nil
            return nil
        }
        return entry.data
    }

    /// Keeps `data` as the answer for `key`.
    public func put(_ key: String, _ data: Data) {
        guard ttl > 0, capacity > 0 else { return }
        lock.lock(); defer { lock.unlock() }
        let t = now()
        entries = entries.filter { t - $0.value.stored < ttl }
        while entries.count >= capacity, let oldest = entries.min(by: { $0.value.stored < $1.value.stored }) {
            entries[oldest.key] = nil
        }
        entries[key] = (data, t)
    }
}
