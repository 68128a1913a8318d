import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore

/// `GET /ws`: the upgrade is decided here, before it happens (Host, Origin, cookie, the number of
/// pages); then the page's messages go to a `PageSession` and previewd's events and answers come
/// back through its `PageOutbox`.
struct WebSocketEndpoint: Sendable {
    let link: DaemonLink
    let guardian: RequestGuard
    let maxPages: Int
    /// The largest message a page may send (and a WebSocket frame).
    static let maxMessage = 64 * 1024

    /// Hummingbird's `shouldUpgrade`: anything refused is left to the router, whose guard answers it.
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel, logger: Logger)
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard RequestGuard.path(of: request) == "/ws" else { return .dontUpgrade }
        let loopback = WebContext.isLoopback(channel.localAddress)
        guard guardian.refusal(for: request, loopback: loopback, upgrade: true) == nil,
              link.pageCount < maxPages else { return .dontUpgrade }
        return .upgrade([:]) { inbound, outbound, _ in
            try await serve(inbound: inbound, outbound: outbound, request: request, loopback: loopback)
        }
    }

    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                       request: HTTPRequest, loopback: Bool) async throws {
        let outbox = PageOutbox()
        link.attach(outbox)
        defer { link.detach(outbox) }
        // Checked again once attached: two upgrades at once may both have seen room.
        guard link.pageCount <= maxPages else {
            try await outbound.close(.unexpectedServerError, reason: "too many pages are open")
            return
        }
        let session = PageSession(link: link, outbox: outbox)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // In frames of at most 64 KiB: a long queue or result list is one message of several.
                for await text in outbox.messages { try await outbound.writeTextMessage(text) }
                // The outbox ended: the socket is closing, or the page fell too far behind.
                if outbox.fellBehind { try? await outbound.close(.goingAway, reason: "too far behind") }
            }
            for try await message in inbound.messages(maxSize: Self.maxMessage) {
                guard guardian.stillPaired(request, loopback: loopback) else {
                    outbox.send(PageRequest.text(of: DaemonLink.failure("unpaired", "the pairing was revoked"), id: nil))
                    break
                }
                guard case .text(let text) = message else {
                    outbox.send(PageRequest.text(of: DaemonLink.failure("bad-request", "requests are text messages"), id: nil))
                    continue
                }
                session.receive(text)
            }
            outbox.finish()
            try await group.waitForAll()
        }
    }
}
