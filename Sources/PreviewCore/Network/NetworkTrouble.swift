/// A transient failure of the network as the player sees it: which host did not answer, as what
/// (the iTunes API, the preview server), why, when, and whether any other host previewd tried
/// answered since the failed try began. When none did, it is an outage: the network itself is away.
public struct NetworkTrouble: Codable, Equatable, Sendable {
    /// What the host is to the listener.
    public enum Service: String, Codable, Sendable {
        case api, previews

        /// The words a listener reads: "the iTunes API", "the preview server".
        public var name: String {
            switch self {
            case .api: return "the iTunes API"
            case .previews: return "the preview server"
            }
        }
    }

    /// `host[:port]` of the URL that failed.
    public var host: String
    /// What the host is to the listener.
    public var service: Service
    /// Why, in a listener's words: "connection refused", "name not resolved", "timed out", "HTTP 503".
    public var cause: String
    /// The server's Retry-After, in milliseconds, when it sent one.
    public var retryAfterMs: Int?
    /// Another host answered since this try (or the wait it belongs to) began: this host is in
    /// trouble, not the network.
    public var othersAnswer: Bool
    /// When it failed (milliseconds since 1970, UTC): the engine's clock, for "since when".
    public var atUnixMs: Int

    /// A failure of `host` as `service` because of `cause`.
    public init(host: String, service: Service, cause: String, retryAfterMs: Int? = nil, othersAnswer: Bool = false, atUnixMs: Int = 0) {
        self.host = host
        self.service = service
        self.cause = cause
        self.retryAfterMs = retryAfterMs
        self.othersAnswer = othersAnswer
        self.atUnixMs = atUnixMs
    }

    /// No host previewd tried answers.
    public var isOutage: Bool { !othersAnswer }

    /// "the preview server (HOST) does not answer (connection refused)", or for a host that
    /// answers with an error status, "the preview server (HOST) answers HTTP 503".
    public var sentence: String {
        cause.hasPrefix("HTTP ") ? "\(service.name) (\(host)) answers \(cause)" : "\(service.name) (\(host)) does not answer (\(cause))"
    }
}
