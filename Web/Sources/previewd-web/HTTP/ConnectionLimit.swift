import NIOCore
import Synchronization

/// On a listening socket: closes a newly accepted connection at once when `limit` are open (across
/// every listener sharing it), or `perPeer` from one other machine's address, so idle or slow clients
/// cannot hold memory and descriptors without bound, and one device on the network cannot take
/// every place (on loopback every client has the same address, and is this machine's).
final class ConnectionLimit: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// Connections open at once at most (pages, their WebSockets, artwork fetches, scripts).
    static let defaultLimit = 128

    /// From one address at most (a browser opens six at a time, a few pages more).
    static let defaultPerPeer = 32

    private let limit: Int
    private let perPeer: Int
    private let open = Mutex((count: 0, byPeer: [String: Int]()))

    init(limit: Int = ConnectionLimit.defaultLimit, perPeer: Int = ConnectionLimit.defaultPerPeer) {
        self.limit = limit
        self.perPeer = perPeer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        let address = child.remoteAddress?.ipAddress ?? ""
        let peer = IPText.isLoopback(address) ? "" : address
        let admitted = open.withLock { open -> Bool in
            guard open.count < limit, peer.isEmpty || open.byPeer[peer, default: 0] < perPeer else { return false }
            open.count += 1
            open.byPeer[peer, default: 0] += 1
            return true
        }
        guard admitted else {
            child.close(promise: nil)
            return
        }
        child.closeFuture.whenComplete { _ in
            self.open.withLock { open in
                open.count -= 1
                open.byPeer[peer, default: 1] -= 1
                if open.byPeer[peer] == 0 { open.byPeer[peer] = nil }
            }
        }
        context.fireChannelRead(data)
    }
}
