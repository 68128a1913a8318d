import PreviewCore

/// An error as MPD reports it: `ACK [code@index] {command} message`, with MPD's error numbers
/// (doc/protocol.rst, "Failure responses"; src/protocol/Ack.hxx).
public struct MPDError: Error, Equatable, Sendable {
    /// MPD's `ACK_ERROR_*` numbers.
    public enum Code: Int, Sendable {
        case notList = 1
        case arg = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
    }

    /// The error number.
    public var code: Code
    /// One line for the user (never holding a newline).
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The engine's error in MPD's terms: a bad argument or a refused transport is the client's
    /// (ARG), nothing found is NO_EXIST, the network and the output are the system's.
    public init(_ error: ControlError) {
        let code: Code = switch error.code {
        case .badRequest, .badArgument, .rejected, .tooLong: .arg
        case .unknownCommand: .unknown
        case .noResults: .noExist
        case .offline, .timeout, .httpStatus, .rateLimited, .invalidData, .output, .stopping, .internal: .system
        }
        self.init(code, error.message)
    }

    /// The `ACK` line for this error raised by `command` (empty when unknown), the `index`-th of
    /// its command list (0 outside one).
    public func line(index: Int, command: String) -> [UInt8] {
        Array("ACK [\(code.rawValue)@\(index)] {\(command)} \(MPDResponse.clean(message))\n".utf8)
    }
}
