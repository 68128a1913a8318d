#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import NIOCore
import PreviewCore

/// The HTTP routes: the embedded pages, `POST /api`, the artwork, the previews (`/audio`), pairing. The guards and headers
/// run in front of them all (`WebServer.makeRouter`).
struct Routes: Sendable {
    let link: DaemonLink
    let tokens: TokenStore
    let codes: PairingCodes
    let tls: Bool
    /// Most WebSockets open at once.
    let maxPages: Int

    /// `Retry-After`, on a locked pairing by code.
    static let retryAfter = HTTPField.Name("Retry-After")!

    /// The largest request body taken.
    static let maxBody = 64 * 1024

    func add(to router: Router<WebContext>) {
        for (path, bytes, type) in PageFiles.all {
            let buffer = ByteBuffer(bytes: bytes)
            router.get(RouterPath(path)) { _, _ in
                Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: buffer))
            }
        }
        router.post("/api") { request, _ in try await api(request) }
        router.get("/art/item/:id") { _, context in
            await artwork(["id": .number(Double(try context.parameters.require("id", as: Int.self)))])
        }
        router.get("/art/track/:trackId") { request, context in
            var selector: [String: JSONValue] = ["trackId": .number(Double(try context.parameters.require("trackId", as: Int.self)))]
            if request.uri.queryParameters["small"] == "1" { selector["small"] = .bool(true) }
            return await artwork(selector)
        }
        // A queue item's preview for a page that plays here ("Play here"), with byte ranges.
        router.get("/audio/item/:id") { request, context in
            await AudioFetcher(link: link).response(item: try context.parameters.require("id", as: Int.self),
                                                    range: request.headers[.range])
        }
        router.get("/pair") { request, _ in pair(request) }
        router.post("/pair/code") { request, _ in try await pairByCode(request) }
        router.get("/ws") { _, _ in
            // Reached only when no upgrade happened: not a WebSocket request, or all places taken.
            link.pageCount >= maxPages ? Self.text(.serviceUnavailable, "too many pages are open\n")
                                       : Self.text(.upgradeRequired, "a WebSocket is expected here\n")
        }
    }

    private func api(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.maxBody)
        let parsed: PageRequest
        do {
            parsed = try PageRequest.parse(body.readableBytesView)
        } catch {
            return Self.json(error.malformed ? .badRequest : .ok, PageRequest.text(of: error.answer, id: error.id))
        }
        let answer = await link.call(parsed.cmd, args: parsed.args)
        return Self.json(.ok, PageRequest.text(of: answer, id: parsed.id))
    }

    private func artwork(_ selector: [String: JSONValue]) async -> Response {
        switch await ArtworkFetcher(link: link).fetch(selector) {
        case .image(let mime, let bytes):
            return Response(status: .ok, headers: [.contentType: mime, .cacheControl: "private, max-age=86400"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .none: return Self.text(.notFound, "no artwork\n")
        case .unavailable: return Self.text(.serviceUnavailable, "previewd is not running\n")
        case .failed(let why): return Self.text(.badGateway, why + "\n")
        }
    }

    private func pair(_ request: Request) -> Response {
        guard let token = request.uri.queryParameters["token"].map(String.init), tokens.matches(token) else {
            return Self.text(.forbidden, "this pairing address is not (or no longer) valid\n")
        }
        return Response(status: .seeOther, headers: [.location: "/", .setCookie: cookie(token), .cacheControl: "no-store"])
    }

    /// `{"code": "123456"}` typed on the "Pair this device" page (`PairingCodes`): the cookie, or why not.
    private func pairByCode(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1024)
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)),
              case .object(let object) = value, let code = object["code"]?.stringValue else {
            return Self.json(.badRequest, #"{"error":"bad-request","message":"expected {\"code\": \"123456\"}"}"#)
        }
        switch codes.redeem(code) {
        case .paired(let token):
            return Response(status: .ok, headers: [.contentType: "application/json", .setCookie: cookie(token), .cacheControl: "no-store"],
                            body: .init(byteBuffer: .init(string: #"{"paired":true}"#)))
        case .wrong(let left):
            return Self.json(.forbidden, #"{"error":"wrong-code","message":"That code is wrong or no longer valid.","triesLeft":\#(left)}"#)
        case .locked(let seconds):
            var response = Self.json(.tooManyRequests, #"{"error":"locked","message":"Too many wrong codes: try again in \#(seconds) s.","retryAfter":\#(seconds)}"#)
            response.headers[Self.retryAfter] = String(seconds)
            return response
        }
    }

    /// The pairing cookie, kept 400 days (browsers' longest): a phone's home-screen remote stays
    /// paired across its sessions until `--pair --revoke`.
    private func cookie(_ token: String) -> String {
        "\(RequestGuard.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/; Max-Age=34560000" + (tls ? "; Secure" : "")
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: .init(string: body)))
    }

    static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: body)))
    }
}
