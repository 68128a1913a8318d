#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Fans player events out to subscribed control connections. `publish` never blocks: each
/// subscription is a bounded queue of encoded lines, and a subscriber that falls `maxPending` lines
/// behind (a client that stopped reading) is marked overflowed and dropped by its connection.
public final class EventHub: @unchecked Sendable {   // `subscriptions` guarded by `lock`
    /// Lines a subscriber may fall behind before it is dropped.
    public let maxPending: Int
    private let lock = Lock()
    private var subscriptions: [ObjectIdentifier: Subscription] = [:]

    /// A hub whose subscribers may fall `maxPending` events behind.
    public init(maxPending: Int = 256) { self.maxPending = maxPending }

    /// Number of live subscriptions.
    public var subscriberCount: Int {
        lock.lock(); defer { lock.unlock() }
        return subscriptions.count
    }

    /// A new subscription; call `cancel` on it when the connection ends.
    public func subscribe() -> Subscription {
        let subscription = Subscription(hub: self, limit: maxPending)
        lock.lock()
        subscriptions[ObjectIdentifier(subscription)] = subscription
        lock.unlock()
        return subscription
    }

    /// Queues `event` for every subscriber (encoded once).
    public func publish(_ event: ControlEvent) {
        lock.lock()
        let targets = Array(subscriptions.values)
        lock.unlock()
        guard !targets.isEmpty else { return }
        let line = Self.encode(event)
        for target in targets { target.push(line) }
    }

    fileprivate func remove(_ subscription: Subscription) {
        lock.lock()
        subscriptions[ObjectIdentifier(subscription)] = nil
        lock.unlock()
    }

    /// The event as one JSON line.
    static func encode(_ event: ControlEvent) -> [UInt8] {
        JSONLine.encode(event.json) ?? Array("{}\n".utf8)
    }

    /// One subscriber's queue of event lines.
    public final class Subscription: @unchecked Sendable {   // `pending`, `overflowed` guarded by `condition`
        private weak var hub: EventHub?
        private let limit: Int
        private let condition = Condition()
        private var pending: [[UInt8]] = []
        private var overflowed = false
        private var cancelled = false

        fileprivate init(hub: EventHub, limit: Int) {
            self.hub = hub
            self.limit = limit
        }

        fileprivate func push(_ line: [UInt8]) {
            condition.lock()
            if pending.count >= limit { overflowed = true } else { pending.append(line) }
            condition.signal()
            condition.unlock()
        }

        /// The lines queued so far, waiting up to `timeout` seconds for one; nil when the subscriber
        /// overflowed or was cancelled (the connection must end).
        public func take(timeout: Double) -> [[UInt8]]? {
            condition.lock(); defer { condition.unlock() }
            if pending.isEmpty, !overflowed, !cancelled { _ = condition.wait(seconds: timeout) }
            guard !overflowed, !cancelled else { return nil }
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }

        /// True when the subscriber fell too far behind.
        public var hasOverflowed: Bool {
            condition.lock(); defer { condition.unlock() }
            return overflowed
        }

        /// Ends the subscription; a waiting `take` returns nil.
        public func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
            hub?.remove(self)
        }
    }
}
