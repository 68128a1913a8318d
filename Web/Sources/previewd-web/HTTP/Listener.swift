import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// One listening socket, bound here or handed over by systemd, whose connections are served by a
/// Hummingbird child channel (plain HTTP with the WebSocket upgrade, or that inside TLS).
struct Listener<Child: ServerChildChannel>: Sendable {
    let server: NIOAsyncChannel<Child.Value, Never>
    let child: Child

    /// Whether a WebSocket upgrade may go ahead (`UpgradeGate`).
    typealias Admit = @Sendable (HTTPRequest, Bool) -> Bool

    /// The address it listens on, as previewd-web's guards see it.
    var address: ListenAddress? {
        guard let local = server.channel.localAddress, let ip = local.ipAddress, let port = local.port else { return nil }
        return ListenAddress(host: ip, port: port)
    }

    /// Binds `address`.
    static func bind(_ address: ListenAddress, child: Child, admit: @escaping Admit, limit: ConnectionLimit,
                     group: any EventLoopGroup, logger: Logger) async throws -> Self {
        let server = try await bootstrap(group, limit).bind(host: address.host, port: address.port) { channel in
            setUp(channel, child: child, admit: admit, logger: logger)
        }
        return Self(server: server, child: child)
    }

    /// Takes over `fd`, a listening TCP socket systemd made (previewd-web.socket).
    static func adopt(_ fd: Int32, child: Child, admit: @escaping Admit, limit: ConnectionLimit,
                      group: any EventLoopGroup, logger: Logger) async throws -> Self {
        let server = try await bootstrap(group, limit).bind(fd) { channel in
            setUp(channel, child: child, admit: admit, logger: logger)
        }
        return Self(server: server, child: child)
    }

    private static func setUp(_ channel: any Channel, child: Child, admit: @escaping Admit, logger: Logger) -> EventLoopFuture<Child.Value> {
        child.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try UpgradeGate.install(on: channel, admit: admit)
            return value
        }
    }

    private static func bootstrap(_ group: any EventLoopGroup, _ limit: ConnectionLimit) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(limit) }
            }
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            // The kernel probes a phone that vanished with its page open (after 60 s quiet, 3 probes
            // 10 s apart, not the 2 hours it waits by default), so its page slot is freed; previewd-web
            // needs no timer for it.
            .childChannelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .childChannelOption(Self.tcpOption(TCP_KEEPIDLE), value: 60)
            .childChannelOption(Self.tcpOption(TCP_KEEPINTVL), value: 10)
            .childChannelOption(Self.tcpOption(TCP_KEEPCNT), value: 3)
    }

    private static func tcpOption(_ name: Int32) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
    }

    /// Accepts and serves connections until the listening socket closes or the task is cancelled.
    func serve(logger: Logger) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask { await child.handle(value: connection, logger: logger) }
                }
            }
        }
    }
}
