#if canImport(Glibc)
import Glibc
#endif

/// systemd's socket activation (previewd-web.socket): the listening sockets come as descriptors 3…,
/// announced by `LISTEN_PID` and `LISTEN_FDS` (sd_listen_fds(3), read here without libsystemd).
enum SocketActivation {
    /// The descriptors handed to this process, if any; the variables are removed so no child sees them.
    static func inheritedSockets() -> [Int32] {
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
              let count = getenv("LISTEN_FDS").flatMap({ Int32(String(cString: $0)) }), count > 0 else { return [] }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fds = Array(3..<(3 + count))
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fds
    }
}

extension SocketActivation {
    /// The address a handed-over socket is bound to, or nil when it is not a TCP socket.
    static func localAddress(of fd: Int32) -> ListenAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> ListenAddress? in
            switch family {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var a = sin.pointee.sin_addr
                    guard inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil else { return nil }
                    return ListenAddress(host: String(cText: text), port: Int(UInt16(bigEndian: sin.pointee.sin_port)))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var a = sin6.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) != nil else { return nil }
                    return ListenAddress(host: String(cText: text), port: Int(UInt16(bigEndian: sin6.pointee.sin6_port)))
                }
            default:
                return nil
            }
        }
    }
}
