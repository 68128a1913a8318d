import PreviewCore
import Synchronization

/// What a front-end is given: the typed way in (`perform`), the events (`events`), the loop it
/// lives on, the log, the player's state, and a way to ask previewd to quit. It never holds a
/// front-end, so front-ends holding it make no cycle.
public final class EngineHandle: Sendable {
    /// The engine loop: where the hub, the player and every front-end's own state live.
    public let loop: EngineLoop
    /// The player's events; observe them on the loop.
    public let events: EventHub
    /// previewd's log.
    public let log: Log
    private let player: Player
    /// Shuts previewd down; set by the engine once it exists.
    private let quitter = Locked<(@Sendable (String) -> Void)?>(nil)
    /// Cleared when shutdown begins: later commands are refused, never carried out on a player
    /// that is stopping.
    private let open = Atomic<Bool>(true)

    init(player: Player, events: EventHub, log: Log) {
        self.loop = player.loop
        self.events = events
        self.log = log
        self.player = player
    }

    /// Carries out `command` (received at `received`, for the track-switch timing) and returns its
    /// result; subscribers hear what changed. Every failure is a `ControlError`.
    public func perform(_ command: ControlCommand, received: UInt64 = MonotonicClock.nanoseconds()) async throws(ControlError) -> ControlResult {
        guard open.load(ordering: .acquiring) else { throw ControlError(.rejected, "previewd is shutting down") }
        return try await player.perform(command, received: received)
    }

    /// The crossfade lengths the `crossfade` verb takes, in seconds (a front-end whose protocol
    /// takes any length clamps to it, as MPD's clients expect).
    public var crossfadeRange: ClosedRange<Int> { PlayerCore.crossfadeRange }

    /// The player's state now. Call on the loop (a front-end's event handler, or a task on it).
    public func status() -> StatusReport {
        player.assumeIsolated { $0.status() }   // the loop is the player's executor
    }

    /// The queue now (with the shuffled order). Call on the loop.
    public func queue() -> QueueReport {
        player.assumeIsolated { $0.queueReport() }
    }

    /// Asks previewd to shut down (MPRIS Quit), saying `why` in the log. Call on the loop.
    public func quit(_ why: String) {
        quitter.withLock { $0 }?(why)
    }

    /// What `quit` does.
    func onQuit(_ quit: @escaping @Sendable (String) -> Void) {
        quitter.withLock { $0 = quit }
    }

    /// Refuses commands from now on (shutdown).
    func close() {
        open.store(false, ordering: .releasing)
    }
}
