/// Where playback is, with the load it plays from. Each case holds exactly the data valid in it
/// (librespot's `PlayerState`): an active transport (loading, playing, paused) carries its current
/// load, a resting one (idle, stopped) has none to carry. "Playing with no load" cannot be written:
/// the only ways in are `load` (a transport that loads, with the slot it loads), `rest` (a
/// transport that stopped) and `move` (a transport that did neither, keeping what it had), and
/// each stops at once, as swift-nio's state machines do, on a transition the transport's table
/// cannot make.
public enum Playhead: Equatable, Sendable {
    /// The transport is idle or stopped: nothing is loaded.
    case resting(Transport)
    /// The transport is loading, playing or paused `current`.
    case active(Transport, current: PlayerCore.Slot)

    /// An idle transport, nothing loaded.
    public init() { self = .resting(Transport()) }

    /// Where playback is.
    public var transport: Transport {
        switch self {
        case .resting(let transport), .active(let transport, _): return transport
        }
    }

    /// The load the transport plays from, while it is active.
    public var current: PlayerCore.Slot? {
        guard case .active(_, let current) = self else { return nil }
        return current
    }

    /// The transport loads `slot`: it is the current load from now on (the one before is the
    /// caller's to let go).
    mutating func load(_ slot: PlayerCore.Slot, on transport: Transport) {
        guard transport.isActive else { fatalError("a load for a transport that is \(transport.playbackState)") }
        self = .active(transport, current: slot)
    }

    /// The transport stopped (or went back to idle); its load was let go.
    mutating func rest(_ transport: Transport) {
        guard !transport.isActive else { fatalError("a transport that is \(transport.playbackState) left with no load") }
        self = .resting(transport)
    }

    /// The transport changed without loading or stopping (a pause, a mode, a report): the load stays.
    mutating func move(to transport: Transport) {
        switch self {
        case .resting:
            guard !transport.isActive else { fatalError("a transport became \(transport.playbackState) without a load") }
            self = .resting(transport)
        case .active(_, let current):
            guard transport.isActive else { fatalError("a transport became \(transport.playbackState) without stopping its load") }
            self = .active(transport, current: current)
        }
    }

    /// Changes the current load; false when the transport rests.
    @discardableResult
    mutating func updateCurrent(_ change: (inout PlayerCore.Slot) -> Void) -> Bool {
        guard case .active(let transport, var current) = self else { return false }
        change(&current)
        self = .active(transport, current: current)
        return true
    }
}
