#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Answers of the API kept in memory by their full URL for `ttl` seconds, so repeating a search
/// costs no call. Bounded: at most `capacity` entries and `maxBytes` bytes of answers (one answer
/// larger than a quarter of that is not kept); stale ones go first, then the least recently used.
/// Thread-safe.
public final class ResponseCache: Sendable {
    /// Seconds an answer stays fresh.
    public let ttl: Double
    /// Entries kept at most.
    public let capacity: Int
    /// Bytes of answers kept at most.
    public let maxBytes: Int
    private let now: @Sendable () -> Double
    /// The answers (when each was stored, when last used: a counter) and their total size.
    private struct Held {
        var entries: [String: (data: Data, stored: Double, used: UInt64)] = [:]
        var bytes = 0
        var uses: UInt64 = 0

        mutating func drop(_ key: String) {
            if let old = entries.removeValue(forKey: key) { bytes -= old.data.count }
        }
    }
    private let held = Locked(Held())

    /// A cache of `capacity` answers and `maxBytes` bytes fresh for `ttl` seconds (0 disables it).
    public init(ttl: Double = 300, capacity: Int = 64, maxBytes: Int = 2 << 20,
                now: @escaping @Sendable () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }) {
        self.ttl = ttl
        self.capacity = capacity
        self.maxBytes = maxBytes
        self.now = now
    }

    /// Bytes of answers held now.
    public var heldBytes: Int { held.withLock { $0.bytes } }

    /// How full it is, for the `memory` command.
    public var report: StoreReport {
        held.withLock { StoreReport(name: "catalog-cache", entries: $0.entries.count, maxEntries: capacity, bytes: $0.bytes, maxBytes: maxBytes) }
    }

    /// The fresh answer for `key`, if any.
    public func get(_ key: String) -> Data? {
        let t = now()
        return held.withLock { h -> Data? in
            guard let entry = h.entries[key] else { return nil }
            guard t - entry.stored < ttl else {
                h.drop(key)
                return nil
            }
            h.uses += 1
            h.entries[key]?.used = h.uses
            return entry.data
        }
    }

    /// Keeps `data` as the answer for `key`.
    public func put(_ key: String, _ data: Data) {
        guard ttl > 0, capacity > 0, data.count <= maxBytes / 4 else { return }
        let t = now()
        held.withLock { h in
            for (stale, entry) in h.entries where t - entry.stored >= ttl { h.drop(stale) }
            h.drop(key)
            while h.entries.count >= capacity || h.bytes + data.count > maxBytes,
                  let leastRecent = h.entries.min(by: { $0.value.used < $1.value.used }) {
                h.drop(leastRecent.key)
            }
            h.uses += 1
            h.entries[key] = (data, t, h.uses)
            h.bytes += data.count
        }
    }
}
