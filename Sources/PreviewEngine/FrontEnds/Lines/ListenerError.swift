import Glibc

/// Why a listening socket could not be made.
public enum ListenerError: Error, Equatable, Sendable {
    /// Another previewd answers on the path.
    case alreadyRunning(String)
    /// A system call failed (`path`: the socket's path, or `HOST:PORT`).
    case system(call: String, errno: Int32, path: String)
    /// The path does not fit in a sockaddr_un.
    case pathTooLong(String)
    /// The socket's folder belongs to another user or others may write to it.
    case unsafeDirectory(String, why: String)
    /// An address that is neither a path nor `HOST:PORT`, or a host that does not resolve.
    case badAddress(String, why: String)

    /// One line for the user.
    public var message: String { message(naming: "socket") }

    /// One line for the user, calling the socket `name` ("control socket").
    public func message(naming name: String) -> String {
        switch self {
        case .alreadyRunning(let path): return "another previewd is already running on \(path)"
        case .system(let call, let code, let path): return "\(call) \(path): \(String(cString: strerror(code)))"
        case .pathTooLong(let path): return "socket path is too long: \(path)"
        case .unsafeDirectory(let path, let why): return "refusing to put the \(name) in \(path): \(why)"
        case .badAddress(let address, let why): return "cannot listen on \(address): \(why)"
        }
    }
}
