import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix

/// previewd-web's HTTP side, built from Hummingbird's parts rather than its `Application`:
/// Application runs a one-second date timer, and previewd-web must not wake while nobody uses it.
/// The same parts serve sockets it binds and sockets systemd hands over.
struct WebServer: Sendable {
    let link: DaemonLink
    let guardian: RequestGuard
    /// Pairing by a typed code (one lock for the whole server).
    let codes: PairingCodes
    let tls: Bool
    let logger: Logger
    /// Most WebSockets open at once.
    static let maxPages = 32

    /// The /ws endpoint: its upgrade check also runs before Hummingbird sees a request (`UpgradeGate`).
    var endpoint: WebSocketEndpoint { WebSocketEndpoint(link: link, guardian: guardian, maxPages: Self.maxPages) }

    /// Whether a WebSocket upgrade may go ahead (`WebSocketEndpoint.admits`).
    var admitsUpgrade: @Sendable (HTTPRequest, Bool) -> Bool {
        { [endpoint] request, loopback in endpoint.admits(request, loopback: loopback) }
    }

    /// The child channel every accepted connection is set up with.
    func childChannel() -> HTTP1WebSocketUpgradeChannel {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeaders<WebContext>())
        router.add(middleware: GuardMiddleware(guardian: guardian))
        Routes(link: link, tokens: guardian.tokens, codes: codes, tls: tls, maxPages: Self.maxPages).add(to: router)
        let responder = router.buildResponder()
        let logger = self.logger
        let endpoint = self.endpoint
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            // An idle keep-alive connection is closed after a while: one timer per open connection,
            // none when nobody is connected.
            http1: .init(idleTimeout: .seconds(60)),
            ws: .init(maxFrameSize: WebSocketEndpoint.maxMessage, autoPing: .disabled))
        return HTTP1WebSocketUpgradeChannel(
            responder: { request, responseWriter, channel in
                let context = WebContext(source: .init(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch {
                    response = Response(status: .internalServerError)
                    SecurityHeaders<WebContext>.apply(to: &response.headers)
                }
                try await responseWriter.write(response: response.head, body: response.body)
            },
            configuration: configuration,
            shouldUpgrade: { request, channel, logger in endpoint.shouldUpgrade(request, channel: channel, logger: logger) })
    }
}
