import PreviewCore

/// MPD's protocol as a front-end: a `LineServer` speaking `MPDProtocol` on the addresses of an
/// `MPDListenPlan`, steering the engine through its `EngineHandle` only, on the engine loop.
public final class MPDFrontEnd: FrontEnd {
    /// The connection server.
    public let server: LineServer
    /// The protocol on it.
    public let mpd: MPDProtocol
    private let plan: MPDListenPlan
    private let engine: EngineHandle

    /// MPD's protocol where `plan` says, steering `engine`; its database renews itself at most
    /// once per `renewalInterval` seconds.
    public init(plan: MPDListenPlan, engine: EngineHandle, renewalInterval: Double = 60) {
        self.plan = plan
        self.engine = engine
        mpd = MPDProtocol(engine: engine, password: plan.password, renewalInterval: renewalInterval)
        server = LineServer(serving: mpd, loop: engine.loop, name: "MPD", log: engine.log)
    }

    /// Listens where the plan says. An address that cannot be served stops previewd with the
    /// reason, except the default socket: when another previewd holds it, this one serves without.
    public func start() throws(FrontEndError) {
        guard !plan.addresses.isEmpty else { return }
        let (mpd, log) = (self.mpd, engine.log)
        engine.loop.execute { mpd.startObserving() }
        for address in plan.addresses {
            let listener: Listener
            do throws(ListenerError) {
                listener = try server.listen(on: address)
            } catch {
                if plan.isDefault {
                    log(.warning, "MPD protocol off: \(error.message(naming: "MPD socket"))")
                    continue
                }
                throw FrontEndError(error.message(naming: "MPD socket"))
            }
            if !listener.isLoopback, plan.password == nil {
                server.stop()
                throw FrontEndError("MPD on \(address): not a loopback address, and no --mpd-password")
            }
            let shown = listener.port.map { "\(address) (port \($0))" } ?? address.description
            log(.info, "MPD protocol \(MPDProtocol.version) on \(shown)")
        }
    }

    /// Stops accepting and removes the socket; hears no more events.
    public func stop() {
        mpd.stop()
        server.stop()
    }

    /// Answers in flight are written (or 2 s have passed).
    public func finish() async { await server.waitUntilIdle(seconds: 2) }
}
