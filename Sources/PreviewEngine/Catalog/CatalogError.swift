import PreviewCore

/// Why a catalog call failed. `message` is the one line a user sees; `controlError` carries it to
/// previewctl with a code of its own (and so an exit status of its own).
public enum CatalogError: Error, Equatable, Sendable {
    /// The API could not be reached (refused, DNS, no route, connection lost): its `host:port`
    /// and why, in a listener's words ("connection refused").
    case offline(base: String, String)
    /// No answer within the timeout.
    case timeout(seconds: Int)
    /// The API answered with a non-success status (other than the rate-limit ones).
    case httpStatus(Int)
    /// The API refused the request and said why: Apple's `errorMessage` of a 4xx answer, with the
    /// values previewd sent for the parameters it names (`country=ZZ`).
    case refused(status: Int, reason: String)
    /// The API is down for now (502, 503, 504), with the seconds it asks to wait when it says.
    case unavailable(status: Int, retryAfterSeconds: Int?)
    /// Too many calls: Apple answered 403 or 429 (`byAPI`), or previewd's own governor held the call.
    case rateLimited(byAPI: Bool, retryAfterSeconds: Int?)
    /// The answer was not the JSON the API sends (HTML, truncated, wrong shape, too large).
    case invalidData(String)
    /// previewd is stopping: the call was cut short.
    case stopping

    /// The longest wait previewd repeats from a Retry-After (an hour): a longer one is said as "over 1 h".
    public static let longestWait = 3600

    /// One line for the user.
    public var message: String {
        switch self {
        case .offline(let base, let why): return "offline: the iTunes API (\(base)) does not answer (\(why))"
        case .timeout(let seconds): return "the iTunes API did not answer within \(seconds) s"
        case .httpStatus(let code): return "the iTunes API answered HTTP \(code)"
        case .refused(let code, let reason): return "the iTunes API refused the request (HTTP \(code)): \(reason)"
        case .unavailable(let code, let after):
            return "the iTunes API is unavailable for now (HTTP \(code))" + (after.map { "; Apple asks to wait \(Self.wait($0))" } ?? "; try again later")
        case .rateLimited(true, let after?):
            return "the iTunes API is rate limiting (about 20 calls a minute); Apple asks to wait \(Self.wait(after))"
        case .rateLimited(true, nil):
            return "the iTunes API is rate limiting (about 20 calls a minute); try again in about a minute"
        case .rateLimited(false, let after):
            return "previewd holds catalog calls to stay under Apple's rate limit; try again in \(after ?? 60) s"
        case .invalidData(let why): return "the iTunes API answered with something unexpected: \(why)"
        case .stopping: return "previewd is stopping: the call to the iTunes API was cut short"
        }
    }

    /// "45 s", "2 min", "1 h", "over 1 h".
    static func wait(_ seconds: Int) -> String {
        if seconds > longestWait { return "over 1 h" }
        if seconds == longestWait { return "1 h" }
        if seconds < 120 { return "\(seconds) s" }
        return "\((seconds + 59) / 60) min"
    }

    /// The error as it travels on the control socket.
    public var controlError: ControlError {
        switch self {
        case .offline: return ControlError(.offline, message)
        case .timeout: return ControlError(.timeout, message)
        case .httpStatus, .refused, .unavailable: return ControlError(.httpStatus, message)
        case .rateLimited: return ControlError(.rateLimited, message)
        case .invalidData: return ControlError(.invalidData, message)
        case .stopping: return ControlError(.stopping, message)
        }
    }
}
