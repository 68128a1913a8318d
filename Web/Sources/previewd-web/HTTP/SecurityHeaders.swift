import HTTPTypes
import Hummingbird

/// Puts the contract's headers on every answer, errors included: a strict CSP (nothing from another
/// origin, no inline script or style), no sniffing, no referrer. Never any CORS header. `media-src`
/// adds `blob:` for "Play here"'s Media Source: a media element plays a MediaSource through an object
/// URL the page makes itself (`URL.createObjectURL`), the bytes in it previewd's own, fetched from 'self'.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        Self.apply(to: &response.headers)
        return response
    }

    /// Adds the headers to `fields`.
    static func apply(to fields: inout HTTPFields) {
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        if fields[.cacheControl] == nil { fields[.cacheControl] = "no-cache" }
    }
}
