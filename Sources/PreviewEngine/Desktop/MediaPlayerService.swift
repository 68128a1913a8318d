import PreviewCore

/// previewd's MPRIS2 player: tells the bus (`MediaPlayerBus`, its own thread) what the player's
/// state is whenever the player publishes a change, whoever caused it (a D-Bus client, previewctl,
/// playback itself), and hands the bus's commands to the player as a client's. Lives on the engine
/// loop; the bus thread only ever reaches it through `loop.execute`.
public final class MediaPlayerService: @unchecked Sendable {   // confined to the engine loop's thread
    private let player: Player
    private let loop: EngineLoop
    private let log: Log
    private var bus: MediaPlayerBus!
    /// A refresh is handed to the loop and not yet run (events come in bursts: one refresh each).
    private var refreshPending = false
    private var seekedPending = false

    /// Shuts previewd down (MPRIS Quit); called on the loop. Dropped by `stop`: it holds what holds this service.
    private var quit: (() -> Void)?

    /// A service for `player`, told of changes by `events`; `quit` shuts previewd down (MPRIS Quit).
    public init(player: Player, loop: EngineLoop, events: EventHub, log: Log, quit: @escaping () -> Void) {
        self.player = player
        self.loop = loop
        self.log = log
        self.quit = quit
        bus = MediaPlayerBus(log: log) { [unowned self, loop] command in
            loop.execute { self.perform(command) }
        }
        events.addObserver { [unowned self] event in
            switch event {
            case .position: return   // clients work the position out themselves
            case .seeked: seekedPending = true
            default: break
            }
            scheduleRefresh()
        }
    }

    /// Connects to the session bus (on the bus thread) and shows the player's state.
    public func start() {
        bus.start()
        loop.execute { [self] in scheduleRefresh() }
    }

    /// Leaves the bus. Call on the loop.
    public func stop() {
        quit = nil
        bus.stop()
    }

    private func scheduleRefresh() {
        guard !refreshPending else { return }
        refreshPending = true
        loop.execute { [self] in
            refreshPending = false
            let status = player.assumeIsolated { $0.status() }   // the loop is the player's executor
            bus.update(MediaPlayerState(status), at: MonotonicClock.nanoseconds(), seeked: seekedPending)
            seekedPending = false
        }
    }

    private func perform(_ command: MediaPlayerCommand) {
        guard let control = command.controlCommand else { return quit?() ?? () }
        Task(executorPreference: loop) { [player, log] in
            do {
                _ = try await player.perform(control)
                // Turning the volume up from the desktop unmutes, as a mixer's slider does.
                if case .setVolume(let level) = command, level > 0, await player.status().muted {
                    _ = try await player.perform(.mute(false))
                }
            } catch let error as ControlError {
                log(.debug, "MPRIS \(command): \(error.message)")
            } catch {
                log(.debug, "MPRIS \(command): \(error)")
            }
        }
    }
}
