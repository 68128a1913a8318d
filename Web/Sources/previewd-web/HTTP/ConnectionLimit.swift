import NIOCore
import Synchronization

/// On a listening socket: closes a newly accepted connection at once when `limit` are open (across
/// every listener sharing it), so idle or slow clients cannot hold memory and descriptors without bound.
final class ConnectionLimit: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// Connections open at once at most (pages, their WebSockets, artwork fetches, scripts).
    static let defaultLimit = 128

    private let limit: Int
    private let open = Mutex(0)

    init(limit: Int = ConnectionLimit.defaultLimit) { self.limit = limit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        let admitted = open.withLock { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            child.close(promise: nil)
            return
        }
        child.closeFuture.whenComplete { _ in self.open.withLock { $0 -= 1 } }
        context.fireChannelRead(data)
    }
}
