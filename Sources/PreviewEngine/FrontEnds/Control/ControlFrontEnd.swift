import PreviewCore

/// The control socket as a front-end: a `LineServer` speaking `ControlProtocol`, which turns each
/// request into a `ControlCommand` for the engine and its typed answer (or error) into the reply
/// line. JSON lives here, not in the engine. Serves on the socket systemd handed over, if any.
public final class ControlFrontEnd: FrontEnd {
    /// The connection server.
    public let server: LineServer
    /// The JSON protocol on it.
    public let control: ControlProtocol
    private let path: String
    private let handover: SocketActivation.Handover

    /// The control socket at `path`, or on the socket systemd passed (`handover`), steering `engine`.
    public init(path: String, handover: SocketActivation.Handover = .none, engine: EngineHandle) {
        self.path = path
        self.handover = handover
        let control = ControlProtocol(loop: engine.loop, events: engine.events) { request in
            await Self.answer(request, engine: engine)
        }
        self.control = control
        server = LineServer(serving: control, loop: engine.loop, name: "control", log: engine.log)
    }

    /// Binds the socket (or adopts systemd's) and starts accepting.
    public func start() throws(FrontEndError) {
        switch handover {
        case .none:
            do throws(ListenerError) { try server.listen(on: .unix(path)) } catch {
                throw FrontEndError(error.message(naming: "control socket"))
            }
        case .socket(let fd, let bound): server.adopt(Listener.adopting(fd, path: bound))
        case .unusable(let why): throw FrontEndError("socket activation: \(why)")
        }
    }

    /// Stops accepting and removes the socket; answers in flight are still written.
    public func stop() { server.stop() }

    /// Answers in flight are written (or 2 s have passed).
    public func finish() async { await server.waitUntilIdle(seconds: 2) }

    /// The reply line to `request`: a line that is no command is answered here, without the engine.
    static func answer(_ request: ControlRequest, engine: EngineHandle) async -> [UInt8] {
        let received = MonotonicClock.nanoseconds()
        do throws(ControlError) {
            let result = try await engine.perform(try ControlCommand(request), received: received)
            return ControlReply.success(id: request.id, result)
        } catch {
            return ControlReply.failure(id: request.id, error)
        }
    }
}
