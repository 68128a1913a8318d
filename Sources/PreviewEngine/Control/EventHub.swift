import PreviewCore

/// Where the player's events go: the control server's subscribed connections. Lives on the engine
/// loop's thread (the player publishes there, the server writes there), so it needs no lock; each
/// event is encoded once, straight to its line, and only while somebody listens.
public final class EventHub: @unchecked Sendable {   // confined to the engine loop's thread
    /// Writes a line to every subscriber (set by the control server).
    var deliver: (([UInt8]) -> Void)?
    /// Told every event, in-process, whether anybody is subscribed or not (the `--on-event` hook, MPRIS).
    private var observers: [(ControlEvent) -> Void] = []
    /// Told when the number of subscribers who want position ticks goes from or to zero (set by the player).
    public var onPositionInterest: (() -> Void)?
    /// Live subscriptions.
    public private(set) var subscriberCount = 0
    /// Subscriptions that asked for the position every second.
    public private(set) var positionSubscriberCount = 0

    /// A hub with nobody subscribed.
    public init() {}

    /// Tells `observer` every event from now on, on the engine loop.
    public func addObserver(_ observer: @escaping (ControlEvent) -> Void) {
        observers.append(observer)
    }

    /// Sends `event` to every observer and subscriber.
    public func publish(_ event: ControlEvent) {
        for observer in observers { observer(event) }
        guard subscriberCount > 0, let deliver, let line = JSONLine.encode(event) else { return }
        deliver(line)
    }

    /// True while somebody wants position ticks.
    public var wantsPosition: Bool { positionSubscriberCount > 0 }

    func subscriberJoined(position: Bool) {
        subscriberCount += 1
        if position { changePositionSubscribers(by: 1) }
    }

    func subscriberLeft(position: Bool) {
        subscriberCount -= 1
        if position { changePositionSubscribers(by: -1) }
    }

    private func changePositionSubscribers(by delta: Int) {
        positionSubscriberCount += delta
        if delta > 0 || positionSubscriberCount == 0 { onPositionInterest?() }   // a newcomer gets a tick at once
    }
}
