/// The engine as previewd runs it: the loop, the player, the hub its events go through, and the
/// front-ends that steer it. Front-ends are added before `start`, start after the player in the
/// order added, and stop in reverse at shutdown; adding one is one `add` call.
///
/// `add` and `start` belong to the thread that builds the engine; `shutDown` runs on the loop.
public final class Engine: @unchecked Sendable {   // `frontEnds` is set before start, `stopping` is the loop's
    /// The engine loop: run it (`loop.run()`) on the thread that is to be the engine's.
    public let loop: EngineLoop
    /// What every front-end is given.
    public let handle: EngineHandle
    private let player: Player
    private let log: Log
    private var frontEnds: [any FrontEnd] = []
    private var started = false
    private var stopping = false

    /// An engine on a new loop, playing with the player `makePlayer` builds on that loop, telling
    /// the hub it is given.
    public init(log: Log, makePlayer: (EngineLoop, EventHub) -> Player) {
        let loop = EngineLoop()
        let events = EventHub()
        let player = makePlayer(loop, events)
        precondition(player.hub === events && player.loop === loop, "the player must publish to the engine's hub, on its loop")
        self.loop = loop
        self.player = player
        self.log = log
        handle = EngineHandle(player: player, events: events, log: log)
        handle.onQuit { [weak self] why in self?.shutDown(why) }   // weak: the engine holds the front-ends that hold the handle
    }

    /// Registers the front-end `make` builds with the engine's handle, and returns it; before `start`.
    @discardableResult
    public func add<Front: FrontEnd>(_ make: (EngineHandle) -> Front) -> Front {
        precondition(!started, "front-ends are added before the engine starts")
        let frontEnd = make(handle)
        frontEnds.append(frontEnd)
        return frontEnd
    }

    /// Starts the player, then every front-end in the order added. When one cannot start, those
    /// started are stopped again and its error is thrown.
    public func start() throws(FrontEndError) {
        precondition(!started, "an engine starts once")
        started = true
        loop.execute { [player] in player.assumeIsolated { $0.start() } }   // before anything the front-ends hand the loop
        for (i, frontEnd) in frontEnds.enumerated() {
            do {
                try frontEnd.start()
            } catch {
                let running = frontEnds[..<i]
                loop.execute { running.reversed().forEach { $0.stop() } }
                throw error
            }
        }
    }

    /// Shuts down once, for `why` (a signal, MPRIS Quit): the front-ends stop taking commands, the
    /// sound fades, the player stops, the front-ends finish what was in flight, and the loop stops
    /// (`loop.run()` returns). Call on the loop.
    public func shutDown(_ why: String) {
        precondition(loop.inLoop, "shutDown runs on the engine loop")
        guard !stopping else { return }
        stopping = true
        log(.info, "\(why): shutting down")
        handle.close()
        frontEnds.reversed().forEach { $0.stop() }
        Task(executorPreference: loop) { [self] in
            // No click: the sound fades for 30 ms before the stream stops (the loop serves meanwhile).
            await withCheckedContinuation { faded in player.sequencer.fadeOutAndStop(milliseconds: 30) { faded.resume() } }
            await player.shutdown()
            for frontEnd in frontEnds.reversed() { await frontEnd.finish() }   // the network is closed: requests end quickly
            loop.stop()
        }
    }
}
