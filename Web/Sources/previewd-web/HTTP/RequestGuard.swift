import HTTPTypes

/// The checks every request passes before any route (and every WebSocket before its upgrade), in
/// one place so no handler can forget one: Host (DNS rebinding), Origin and a JSON body for anything
/// that changes state (CSRF), and the pairing cookie off loopback.
struct RequestGuard: Sendable {
    /// Why a request is refused, with the status it gets.
    enum Refusal: Error, Equatable {
        case misdirected, foreignOrigin, notJSON, unpaired

        /// 421, 403, 415 or 401.
        var status: HTTPResponse.Status {
            switch self {
            case .misdirected: .misdirectedRequest
            case .foreignOrigin: .forbidden
            case .notJSON: .unsupportedMediaType
            case .unpaired: .unauthorized
            }
        }

        /// One line for the body.
        var message: String {
            switch self {
            case .misdirected: "previewd-web does not serve this host name"
            case .foreignOrigin: "requests from other sites are refused"
            case .notJSON: "the body must be application/json"
            case .unpaired: "this device is not paired: open the address previewd-web --pair prints"
            }
        }
    }

    /// `Sec-Fetch-Site`: same-origin, same-site, cross-site or none (typed, a bookmark, a QR code).
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// The name of the pairing cookie.
    static let cookieName = "previewd_web"
    /// Paths open without the cookie: pairing itself (the address, the typed code, the "Pair this
    /// device" page's script and style), and what a home screen fetches on its own.
    static let openPaths: Set<String> = ["/pair", "/pair/code", "/pair.js", "/app.css",
                                         "/manifest.webmanifest", "/icon.svg", "/icon-192.png", "/icon-512.png"]

    let hosts: HostPolicy
    let tokens: TokenStore

    /// Why `request`, arriving on a socket whose local end is `loopback` or not, is refused, or nil.
    func refusal(for request: HTTPRequest, loopback: Bool, upgrade: Bool) -> Refusal? {
        guard let host = request.authority, hosts.allows(host: host) else { return .misdirected }
        // What the browser says of who asks (sent to loopback and HTTPS origins): another site's page
        // may not even load a picture from here (and learn which queue ids exist). Pairing links may
        // come from anywhere: the token is their proof. A typed code is not: it comes from the page.
        if let site = request.headerFields[Self.fetchSite], site == "cross-site" || site == "same-site",
           Self.path(of: request) != "/pair" {
            return .foreignOrigin
        }
        let safe = request.method == .get || request.method == .head
        if upgrade || !safe {
            guard let origin = request.headerFields[.origin], hosts.allows(origin: origin) else { return .foreignOrigin }
        }
        if !safe {
            guard let type = request.headerFields[.contentType], Self.isJSON(type) else { return .notJSON }
        }
        if !loopback, !Self.openPaths.contains(Self.path(of: request)) {
            guard let cookie = Self.cookie(in: request), tokens.matches(cookie) else { return .unpaired }
        }
        return nil
    }

    /// Whether `request` still carries the current token (a WebSocket checks on every message, so
    /// `--pair --revoke` ends an open page too).
    func stillPaired(_ request: HTTPRequest, loopback: Bool) -> Bool {
        loopback || Self.cookie(in: request).map(tokens.matches) == true
    }

    /// The path without the query.
    static func path(of request: HTTPRequest) -> String {
        let full = request.path ?? "/"
        return full.firstIndex(of: "?").map { String(full[..<$0]) } ?? full
    }

    /// `application/json`, with or without parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return media.trimmingWhitespace.lowercased() == "application/json"
    }

    /// The value of the pairing cookie, if the request has one.
    static func cookie(in request: HTTPRequest) -> String? {
        for header in request.headerFields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, String(parts[0]).trimmingWhitespace == cookieName {
                    return String(parts[1]).trimmingWhitespace
                }
            }
        }
        return nil
    }
}
