/// Why a catalog call failed. `message` is the one line a user sees.
public enum CatalogError: Error, Equatable, Sendable {
    /// The API could not be reached (refused, DNS, timeout); the text is URLSession's.
    case unreachable(base: String, String)
    /// The API answered with a non-success status.
    case httpStatus(Int)
    /// The answer was not the JSON the API sends.
    case invalidResponse(String)
    /// The answer was larger than previewd reads.
    case tooLarge(limit: Int)

    /// One line for the user.
    public var message: String {
        switch self {
        case .unreachable(let base, let why): return "cannot reach the iTunes API at \(base): \(why)"
        case .httpStatus(429): return "the iTunes API is rate limiting (HTTP 429); try again in a minute"
        case .httpStatus(let code): return "the iTunes API answered HTTP \(code)"
        case .invalidResponse(let why): return "the iTunes API answered with something unexpected: \(why)"
        case .tooLarge(let limit): return "the iTunes API answer was larger than \(limit / 1024 / 1024) MiB"
        }
    }
}
