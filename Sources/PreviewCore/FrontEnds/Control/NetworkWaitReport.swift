/// Playback holds at a track whose preview's host does not answer (`status.waiting`, the `waiting`
/// event): which track, which host as what, why, and since when. The track plays as soon as the
/// host answers; nothing is marked failed while the network is away.
public struct NetworkWaitReport: Codable, Equatable, Sendable {
    /// The track's queue index (0-based, as `index` everywhere in the protocol) and id.
    public var index: Int
    public var id: Int
    /// `host[:port]` that does not answer.
    public var host: String
    /// `previews` (the preview server) or `api` (the iTunes API).
    public var service: NetworkTrouble.Service
    /// Why, in a listener's words ("connection refused", "timed out", "HTTP 503").
    public var cause: String
    /// No other host answers either: the network is away (false: only this host is in trouble).
    public var outage: Bool
    /// When the first try failed, in milliseconds since 1970 (UTC).
    public var sinceUnixMs: Int
    /// How long it has waited, in milliseconds, as of this report (`status` only; 0 in events).
    public var waitedMs: Int
    /// Failed tries so far.
    public var tries: Int
    /// One line: "waiting for the network: the preview server (HOST) does not answer (connection refused)".
    public var message: String

    /// The report of `wait` for the item at `index`, `waitedMs` after it began.
    public init(_ wait: NetworkHold.Wait, index: Int, waitedMs: Int = 0) {
        self.index = index
        id = wait.item
        host = wait.trouble.host
        service = wait.trouble.service
        cause = wait.trouble.cause
        outage = wait.trouble.isOutage
        sinceUnixMs = wait.sinceUnixMs
        self.waitedMs = waitedMs
        tries = wait.failures
        message = "waiting for the network: " + wait.trouble.sentence
    }

    /// The line a listener reads: "waiting for the network: the preview server (HOST) does not
    /// answer since 0:12 (connection refused)".
    public var line: String {
        let seconds = max(0, waitedMs) / 1000
        let since = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
        return "waiting for the network: \(service.name) (\(host)) does not answer since \(since) (\(cause))"
    }
}
