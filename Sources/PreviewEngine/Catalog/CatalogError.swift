import PreviewCore

/// Why a catalog call failed. `message` is the one line a user sees; `controlError` carries it to
/// previewctl with a code of its own (and so an exit status of its own).
public enum CatalogError: Error, Equatable, Sendable {
    /// The API could not be reached (refused, DNS, no route, connection lost); the text is URLSession's.
    case offline(base: String, String)
    /// No answer within the timeout.
    case timeout(seconds: Int)
    /// The API answered with a non-success status (other than the rate-limit ones).
    case httpStatus(Int)
    /// Too many calls: Apple answered 403 or 429 (`byAPI`), or previewd's own governor held the call.
    case rateLimited(byAPI: Bool, retryAfterSeconds: Int?)
    /// The answer was not the JSON the API sends (HTML, truncated, wrong shape, too large).
    case invalidData(String)

    /// One line for the user.
    public var message: String {
        switch self {
        case .offline(let base, let why): return "cannot reach the iTunes API at \(base): \(why)"
        case .timeout(let seconds): return "the iTunes API did not answer within \(seconds) s"
        case .httpStatus(let code): return "the iTunes API answered HTTP \(code)"
        case .rateLimited(true, let after):
            return "the iTunes API is rate limiting (about 20 calls a minute); try again in \(after ?? 60) s"
        case .rateLimited(false, let after):
            return "previewd holds catalog calls to stay under Apple's rate limit; try again in \(after ?? 60) s"
        case .invalidData(let why): return "the iTunes API answered with something unexpected: \(why)"
        }
    }

    /// The error as it travels on the control socket.
    public var controlError: ControlError {
        switch self {
        case .offline: return ControlError(.offline, message)
        case .timeout: return ControlError(.timeout, message)
        case .httpStatus: return ControlError(.httpStatus, message)
        case .rateLimited: return ControlError(.rateLimited, message)
        case .invalidData: return ControlError(.invalidData, message)
        }
    }
}
