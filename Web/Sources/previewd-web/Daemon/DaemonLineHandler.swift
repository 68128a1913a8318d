import NIOCore

/// The end of the pipeline on the connection to previewd: hands each line to the link and tells it
/// when the connection is gone.
final class DaemonLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let link: DaemonLink

    init(link: DaemonLink) { self.link = link }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        link.received(line: unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        link.disconnected(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A line over the bound or a broken socket: drop the connection; the link reconnects.
        context.close(promise: nil)
    }
}
