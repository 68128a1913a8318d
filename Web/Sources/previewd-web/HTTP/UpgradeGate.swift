import HTTPTypes
import NIOCore
import NIOHTTP1

/// Sits right after the HTTP decoder and takes the `Upgrade` header off a WebSocket request that
/// `RequestGuard` (or the page limit) refuses, so the request reaches the router as plain HTTP and
/// is answered 421, 403, 401 or 503 with the reason, instead of the bare 400 a failed upgrade gets.
/// An upgrade it admits removes it from the pipeline, which then carries WebSocket frames.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let admit: @Sendable (HTTPRequest, Bool) -> Bool

    /// `admit(request, loopback)` says whether an upgrade may happen.
    init(admit: @escaping @Sendable (HTTPRequest, Bool) -> Bool) { self.admit = admit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") else {
            return context.fireChannelRead(data)
        }
        if admit(Self.request(head), WebContext.isLoopback(context.channel.localAddress)) {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        head.headers.remove(name: "upgrade")
        let connection = head.headers[canonicalForm: "connection"].filter { $0.lowercased() != "upgrade" }
        head.headers.remove(name: "connection")
        for value in connection { head.headers.add(name: "connection", value: String(value)) }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Puts a gate after the request decoder of `channel`'s freshly set up pipeline.
    static func install(on channel: any Channel, admit: @escaping @Sendable (HTTPRequest, Bool) -> Bool) throws {
        let operations = channel.pipeline.syncOperations
        let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try operations.addHandler(UpgradeGate(admit: admit), position: .after(decoder))
    }

    /// The NIO head as the guard reads it.
    static func request(_ head: HTTPRequestHead) -> HTTPRequest {
        var fields = HTTPFields()
        for (name, value) in head.headers where name.lowercased() != "host" {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return HTTPRequest(method: HTTPRequest.Method(head.method.rawValue) ?? .get, scheme: nil,
                           authority: head.headers.first(name: "host"), path: head.uri, headerFields: fields)
    }
}
