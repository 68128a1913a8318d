import HTTPTypes
import Hummingbird

/// Runs `RequestGuard` in front of every route; a refused request gets its status and one line
/// (GET / off loopback: the "Pair this device" page, which takes a pairing code).
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
            return Response(status: .unauthorized, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: .init(bytes: PackageResources.pair_html)))
        }
        return Response(status: refusal.status, headers: [.contentType: "text/plain; charset=utf-8"],
                        body: .init(byteBuffer: .init(string: refusal.message + "\n")))
    }
}
