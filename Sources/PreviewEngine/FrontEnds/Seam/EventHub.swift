import PreviewCore

/// Where the player's events go: every front-end that observes them (the control socket's
/// subscribers, MPRIS, the `--on-event` hook, a test's recorder), in the order they registered.
/// `position` ticks go only to the observers that asked for them, and the player ticks only while
/// one does: this is the one place ticks are filtered (each subscriber of the control socket is an
/// observer of its own). Lives on the engine loop's thread (the player publishes there, front-ends listen
/// there), so it needs no lock.
public final class EventHub: @unchecked Sendable {   // confined to the engine loop's thread
    /// An observer's registration, to change or remove it.
    public struct Observer: Hashable, Sendable {
        fileprivate let number: UInt64
    }

    private struct Registration {
        let observer: Observer
        var wantsPosition: Bool
        let handler: (ControlEvent) -> Void
    }

    private var registrations: [Registration] = []
    private var registered: UInt64 = 0
    /// Told when an observer starts wanting position ticks (it gets one at once) or the last one
    /// stops (set by the player).
    public var onPositionInterest: (() -> Void)?

    /// A hub nobody observes.
    public init() {}

    /// Tells `handler` every event from now on, on the engine loop; `position` ticks only when
    /// `wantsPosition`.
    public func addObserver(wantsPosition: Bool = false, _ handler: @escaping (ControlEvent) -> Void) -> Observer {
        registered += 1
        let observer = Observer(number: registered)
        registrations.append(Registration(observer: observer, wantsPosition: false, handler: handler))
        if wantsPosition { setWantsPosition(true, for: observer) }
        return observer
    }

    /// Starts or stops position ticks for `observer`. Asking again while it already has them gets
    /// it a tick at once (the control socket does, for each new subscriber that asks).
    public func setWantsPosition(_ wanted: Bool, for observer: Observer) {
        guard let i = registrations.firstIndex(where: { $0.observer == observer }) else { return }
        let before = wantsPosition
        registrations[i].wantsPosition = wanted
        if wanted || (before && !wantsPosition) { onPositionInterest?() }
    }

    /// Tells `observer` nothing more.
    public func removeObserver(_ observer: Observer) {
        guard let i = registrations.firstIndex(where: { $0.observer == observer }) else { return }
        let wanted = registrations.remove(at: i).wantsPosition
        if wanted, !wantsPosition { onPositionInterest?() }
    }

    /// Sends `event` to every observer registered when it is published that is still registered
    /// when its turn comes (a handler may remove another).
    public func publish(_ event: ControlEvent) {
        let isPosition = if case .position = event { true } else { false }
        for registration in registrations where !isPosition || registration.wantsPosition {
            guard registrations.contains(where: { $0.observer == registration.observer }) else { continue }
            registration.handler(event)
        }
    }

    /// True while an observer wants position ticks.
    public var wantsPosition: Bool { registrations.contains(where: \.wantsPosition) }

    /// Observers registered.
    public var observerCount: Int { registrations.count }
}
