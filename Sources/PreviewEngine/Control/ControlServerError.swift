import Glibc

/// Why the control socket could not be served.
public enum ControlServerError: Error, Equatable, Sendable {
    /// Another previewd answers on the path.
    case alreadyRunning(String)
    /// A system call failed.
    case system(call: String, errno: Int32, path: String)
    /// The path does not fit in a sockaddr_un.
    case pathTooLong(String)
    /// The socket's folder belongs to another user or others may write to it.
    case unsafeDirectory(String, why: String)

    /// One line for the user.
    public var message: String {
        switch self {
        case .alreadyRunning(let path): return "another previewd is already running on \(path)"
        case .system(let call, let code, let path): return "\(call) \(path): \(String(cString: strerror(code)))"
        case .pathTooLong(let path): return "socket path is too long: \(path)"
        case .unsafeDirectory(let path, let why): return "refusing to put the control socket in \(path): \(why)"
        }
    }
}
