/// One GET for `HTTPClient`: where, from which byte, how long to wait, where redirects may go.
public struct HTTPRequest: Sendable {
    /// An absolute http(s) URL.
    public var url: String
    /// Ask for the body from this byte on (`Range: bytes=N-`); 0 asks for all of it.
    public var rangeStart = 0
    /// Ask only up to this byte, included (`Range: bytes=N-E`: a preview's head).
    public var rangeEnd: Int?
    /// The whole exchange must end within this many seconds (nil: no limit on the whole).
    public var totalTimeout: Double?
    /// Fail when connecting takes this long, or when no byte arrives for this long.
    public var stallTimeout: Double = 15
    /// Let libcurl ask for and undo gzip/deflate/brotli (JSON answers; never for audio with a Range).
    public var acceptCompression = false
    /// A HEAD: the answer's head only (a pre-connect's probe).
    public var headOnly = false
    /// Redirects followed, each checked with `allowRedirect` first.
    public var maxRedirects = 5
    /// Whether a redirect may go to this absolute URL; false fails the request. A redirect from
    /// https to http is refused whatever this says.
    public var allowRedirect: @Sendable (String) -> Bool = { _ in true }
    /// The one `host:port` (as `PreviewURLPolicy.origin(of:)` writes it) whose connections may reach
    /// a loopback, private or other non-public address: the configured API's own origin (a local
    /// stand-in or mirror). Every other connection, redirects included, must reach a public address
    /// (`AddressPolicy`), checked on the address itself as it is connected.
    public var localOrigin: String?
    /// What the request is for: a search and a preview are steps of a start (`StartTimeline`).
    public var purpose = Purpose.other

    /// What a request is for.
    public enum Purpose: Sendable {
        case other, search, catalog, preview
    }

    /// A GET of `url`.
    public init(url: String) {
        self.url = url
    }
}

/// The head of the final response (after any redirects).
public struct HTTPHead: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Content-Length, when the server sent one.
    public var contentLength: Int?
    /// The media type of Content-Type, lowercased, without parameters.
    public var mediaType: String?
    /// Retry-After in seconds (sent as seconds or as an HTTP-date).
    public var retryAfterSeconds: Int?
    /// The first byte a 206 answer holds (`Content-Range: bytes START-END/TOTAL`).
    public var rangeStart: Int?
    /// The whole body's length a 206 answer states (TOTAL, when not `*`).
    public var rangeTotal: Int?
}

/// Why an HTTP exchange ended without a complete body.
public enum HTTPFailure: Error, Equatable, Sendable {
    /// The exchange was cancelled, or a handler asked to stop.
    case cancelled
    /// No connection, no byte or no end within the timeouts.
    case timedOut(String)
    /// More than `maxRedirects` redirects, or one to a URL `allowRedirect` refused.
    case redirectRefused(String)
    /// No connection, or one lost before the answer: `cause` in a listener's words ("connection
    /// refused", "name not resolved", "TLS failed", "connection reset"), `detail` libcurl's.
    case unreachable(cause: String, detail: String)
    /// Anything else the network or server did wrong (a short body, a handle libcurl refused).
    case transport(String)

    /// One line for logs and users.
    public var message: String {
        switch self {
        case .cancelled: return "cancelled"
        case .timedOut(let why), .redirectRefused(let why), .transport(let why): return why
        case .unreachable(_, let detail): return detail
        }
    }

    /// Why, in a listener's words, when the network is to blame and trying again may help (nil:
    /// cancelled, a redirect or an address refused, a short body, which the caller resumes).
    public var transientCause: String? {
        switch self {
        case .cancelled, .redirectRefused, .transport: return nil
        case .timedOut: return "timed out"
        case .unreachable(let cause, _): return cause
        }
    }
}
