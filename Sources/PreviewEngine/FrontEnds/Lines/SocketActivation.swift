import CPreviewLinux
import CSystemd
import Glibc

/// systemd's socket activation: the listening socket `previewd.socket` (or
/// `systemd-socket-activate -l PATH`) made and handed to previewd as descriptor 3, announced by
/// `LISTEN_FDS` and `LISTEN_PID` (`sd_listen_fds`, from libsystemd).
public enum SocketActivation {
    /// What was handed over.
    public enum Handover: Sendable {
        /// Nothing: previewd makes its own socket.
        case none
        /// A listening Unix stream socket, and the path it is bound to (when it has one).
        case socket(Int32, path: String?)
        /// Something previewd cannot serve on, and why.
        case unusable(String)
    }

    /// The socket systemd handed over, if any; the LISTEN_ variables are removed so no child (an
    /// event hook) sees them.
    public static func handover() -> Handover {
        let count = sd_listen_fds(1)
        guard count > 0 else { return count == 0 ? .none : .unusable("sd_listen_fds: \(String(cString: strerror(-count)))") }
        let fd = csd_listen_fds_start()
        guard count == 1 else { return .unusable("systemd passed \(count) sockets; previewd serves one (ListenStream=)") }
        guard sd_is_socket_unix(fd, CPL_SOCK_STREAM, 1, nil, 0) > 0 else {
            return .unusable("the socket systemd passed is not a listening Unix stream socket")
        }
        return .socket(fd, path: boundPath(fd))
    }

    private static func boundPath(_ fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return path.isEmpty ? nil : path
    }
}
