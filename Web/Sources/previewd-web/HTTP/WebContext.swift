import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus which socket the request came in on, since
/// loopback needs no pairing.
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Whether the connection's local end is a loopback address (only this machine can reach it).
    let loopback: Bool

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        loopback = WebContext.isLoopback(source.channel.localAddress)
    }

    /// Whether `address` is loopback (127.0.0.0/8, ::1) or a Unix socket.
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        switch address {
        case .v4, .v6: address?.ipAddress.map(IPText.isLoopback) ?? false
        case .unixDomainSocket: true
        case nil: false
        }
    }
}
