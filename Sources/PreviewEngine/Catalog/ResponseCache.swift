#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers of the API kept in memory by their full URL for `ttl` seconds, so repeating a search
/// costs no call. At most `capacity` entries and `maxBytes` bytes of answers (one answer larger than
/// a quarter of that is not kept); the oldest go first. Thread-safe.
public final class ResponseCache: @unchecked Sendable {   // entries guarded by `lock`
    /// Seconds an answer stays fresh.
    public let ttl: Double
    /// Entries kept at most.
    public let capacity: Int
    /// Bytes of answers kept at most.
    public let maxBytes: Int
    private let now: @Sendable () -> Double
    private let lock = Lock()
    private var entries: [String: (data: Data, stored: Double)] = [:]
    private var bytes = 0

    /// A cache of `capacity` answers and `maxBytes` bytes fresh for `ttl` seconds (0 disables it).
    public init(ttl: Double = 300, capacity: Int = 64, maxBytes: Int = 2 << 20,
                now: @escaping @Sendable () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }) {
        self.ttl = ttl
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.now = now
    }

    /// Bytes of answers held now.
    public var heldBytes: Int { lock.withLock { bytes } }

    /// The fresh answer for `key`, if any.
    public func get(_ key: String) -> Data? {
        lock.lock(); defer { lock.unlock() }
        guard let entry = entries[key] else { return nil }
        guard now() - entry.stored < ttl else {
            drop(key)
            return nil
        }
        return entry.data
    }

    /// Keeps `data` as the answer for `key`.
    public func put(_ key: String, _ data: Data) {
        guard ttl > 0, capacity > 0, data.count <= maxBytes / 4 else { return }
        lock.lock(); defer { lock.unlock() }
        let t = now()
        for (stale, entry) in entries where t - entry.stored >= ttl { drop(stale) }
        drop(key)
        while entries.count >= capacity || bytes + data.count > maxBytes,
              let oldest = entries.min(by: { $0.value.stored < $1.value.stored }) {
            drop(oldest.key)
        }
        entries[key] = (data, t)
        bytes += data.count
    }

    /// Removes `key`'s entry (lock held).
    private func drop(_ key: String) {
        if let old = entries.removeValue(forKey: key) { bytes -= old.data.count }
    }
}
