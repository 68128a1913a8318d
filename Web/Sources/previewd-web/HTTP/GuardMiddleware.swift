import HTTPTypes
import Hummingbird

/// Runs `RequestGuard` in front of every route; a refused request gets its status and one line
/// (GET / off loopback: a small page saying how to pair).
struct GuardMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let guardian: RequestGuard

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        let head = HTTPRequest(method: request.method, scheme: request.head.scheme, authority: request.head.authority,
                               path: request.head.path, headerFields: request.headers)
        // /ws is checked as the upgrade it should have been (the gate let it through as plain HTTP).
        guard let refusal = guardian.refusal(for: head, loopback: context.loopback, upgrade: request.uri.path == "/ws") else {
            return try await next(request, context)
        }
        if refusal == .unpaired, request.uri.path == "/" {
            return Response(status: .unauthorized, headers: [.contentType: "text/html; charset=utf-8"],
                            body: .init(byteBuffer: .init(string: Self.pairingPage)))
        }
        return Response(status: refusal.status, headers: [.contentType: "text/plain; charset=utf-8"],
                        body: .init(byteBuffer: .init(string: refusal.message + "\n")))
    }

    static let pairingPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>previewd: pair this device</title></head>
        <body><h1>Pair this device</h1>
        <p>This remote needs pairing. On the machine running previewd, run <code>previewd-web --pair</code>
        and open the address it prints (or scan its QR code) on this device.</p></body></html>

        """
}
