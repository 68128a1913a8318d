import PreviewCore

/// previewd's MPRIS2 player, a front-end: tells the bus (`MediaPlayerBus`, its own thread) what the
/// player's state is whenever the engine publishes a change, whoever caused it (a D-Bus client,
/// previewctl, playback itself), and hands the bus's commands to the engine as a client's. Lives on
/// the engine loop; the bus thread only ever reaches it through `loop.execute`.
public final class MediaPlayerService: FrontEnd, @unchecked Sendable {   // confined to the engine loop's thread
    private let engine: EngineHandle
    private var bus: MediaPlayerBus!
    private var observer: EventHub.Observer?
    /// A refresh is handed to the loop and not yet run (events come in bursts: one refresh each).
    private var refreshPending = false
    private var seekedPending = false
    /// Set by `stop`: commands still on their way from the bus are dropped.
    private var stopped = false

    /// A service steering `engine`; `start` connects.
    public init(engine: EngineHandle) {
        self.engine = engine
        bus = MediaPlayerBus(log: engine.log) { [unowned self, loop = engine.loop] command in
            loop.execute { self.perform(command) }
        }
    }

    /// Connects to the session bus (on the bus thread), then hears the engine's events and shows
    /// the player's state. No session bus is a log line, never an error.
    public func start() {
        bus.start()
        engine.loop.execute { [self] in
            // Positions are not wanted: clients work the position out themselves.
            observer = engine.events.addObserver { [unowned self] event in
                if case .seeked = event { seekedPending = true }
                scheduleRefresh()
            }
            scheduleRefresh()
        }
    }

    /// Leaves the bus and stops hearing events.
    public func stop() {
        stopped = true
        if let observer { engine.events.removeObserver(observer) }
        observer = nil
        bus.stop()
    }

    private func scheduleRefresh() {
        guard !refreshPending else { return }
        refreshPending = true
        engine.loop.execute { [self] in
            refreshPending = false
            guard !stopped else { return }
            bus.update(MediaPlayerState(engine.status()), at: MonotonicClock.nanoseconds(), seeked: seekedPending)
            seekedPending = false
        }
    }

    private func perform(_ command: MediaPlayerCommand) {
        guard !stopped else { return }
        guard let control = command.controlCommand else { return engine.quit("MPRIS Quit") }
        Task(executorPreference: engine.loop) { [engine] in
            do throws(ControlError) {
                _ = try await engine.perform(control)
                // Turning the volume up from the desktop unmutes, as a mixer's slider does.
                if case .setVolume(let level) = command, level > 0, engine.status().muted {
                    _ = try await engine.perform(.mute(false))
                }
            } catch {
                engine.log(.debug, "MPRIS \(command): \(error.message)")
            }
        }
    }
}
