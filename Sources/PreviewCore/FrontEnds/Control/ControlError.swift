/// An error as it travels on the control socket: a stable machine code and one line for a person.
public struct ControlError: Error, Codable, Equatable, Sendable {
    /// Stable codes clients can switch on.
    public enum Code: String, Codable, Sendable {
        /// The line was not a JSON object of the request shape.
        case badRequest = "bad-request"
        /// `cmd` names no command.
        case unknownCommand = "unknown-command"
        /// An argument is missing or of the wrong type or range.
        case badArgument = "bad-argument"
        /// The search found nothing.
        case noResults = "no-results"
        /// The iTunes API could not be reached (offline, refused, DNS).
        case offline = "offline"
        /// The iTunes API did not answer in time.
        case timeout = "timeout"
        /// The iTunes API answered with an HTTP error status.
        case httpStatus = "http-status"
        /// Too many catalog calls (Apple's 403/429, or previewd's own governor).
        case rateLimited = "rate-limited"
        /// The iTunes API's answer was not the JSON it sends.
        case invalidData = "invalid-data"
        /// The transport refused (empty queue, no such index, nothing playing).
        case rejected = "rejected"
        /// The audio output failed.
        case output = "output"
        /// The line exceeded the protocol's limit.
        case tooLong = "too-long"
        /// previewd is stopping: the call was cut short (previewctl exits 3, as when it is not running).
        case stopping = "stopping"
        /// Anything else.
        case `internal` = "internal"
    }

    /// The machine code.
    public var code: Code
    /// One line for the user.
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
