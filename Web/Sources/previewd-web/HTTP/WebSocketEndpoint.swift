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
    /// What a page hears once its pairing is revoked, before the socket closes.
    static let unpaired = PageRequest.text(of: DaemonLink.failure("unpaired", "the pairing was revoked"), id: nil)

    /// Hummingbird's `shouldUpgrade`: anything refused is left to the router, whose guard answers it.
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel, logger: Logger)
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let loopback = WebContext.isLoopback(channel.localAddress)
        guard admits(request, loopback: loopback) else { return .dontUpgrade }
        return .upgrade([:]) { inbound, outbound, _ in
            try await serve(inbound: inbound, outbound: outbound, request: request, loopback: loopback, channel: channel)
        }
    }

    /// Whether a WebSocket upgrade may go ahead: to /ws, past the guard, with room for one more page
    /// (asked twice: by `UpgradeGate` before Hummingbird sees the request, and here).
    func admits(_ request: HTTPRequest, loopback: Bool) -> Bool {
        RequestGuard.path(of: request) == "/ws" && guardian.refusal(for: request, loopback: loopback, upgrade: true) == nil
            && link.pageCount < maxPages
    }

    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                       request: HTTPRequest, loopback: Bool, channel: any Channel) async throws {
        let outbox = PageOutbox { channel.close(promise: nil) }
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
                for await text in outbox.messages {
                    // A page that only listens hears of a revoked pairing here, not at its next request.
                    guard guardian.stillPaired(request, loopback: loopback) else {
                        try? await outbound.writeTextMessage(Self.unpaired)
                        try? await outbound.close(.policyViolation, reason: "the pairing was revoked")
                        return
                    }
                    try await outbound.writeTextMessage(text)
                }
                // The outbox ended: the socket is closing, or the page fell too far behind.
                if outbox.fellBehind { try? await outbound.close(.goingAway, reason: "too far behind") }
            }
            for try await message in inbound.messages(maxSize: Self.maxMessage) {
                guard guardian.stillPaired(request, loopback: loopback) else {
                    outbox.send(Self.unpaired)   // the writer says it and closes
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
