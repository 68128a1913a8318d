import CPreviewLinux
import Glibc

/// Small helpers over Glibc's Unix-domain sockets: one path from a failing call to a Swift error.
enum UnixSocket {
    /// Runs `body` with `path` as a sockaddr_un.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(ListenerError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw .pathTooLong(path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A new stream socket, close-on-exec.
    static func make(path: String) throws(ListenerError) -> Int32 {
        let fd = socket(AF_UNIX, CPL_SOCK_STREAM | CPL_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno, path: path) }
        return fd
    }

    /// True when something accepts connections on `path`.
    static func answers(_ path: String) -> Bool {
        guard let fd = try? make(path: path) else { return false }
        defer { close(fd) }
        let result = (try? withAddress(path) { connect(fd, $0, $1) }) ?? -1
        return result == 0
    }

    /// Writes all of `bytes`, retrying EINTR; false when the peer is gone or the send timed out.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// The uid of the process at the other end of `fd` (SO_PEERCRED).
    static func peerUID(_ fd: Int32) -> uid_t? {
        var uid: uid_t = 0
        return cpl_peer_uid(fd, &uid) == 0 ? uid : nil
    }

    /// Makes `fd` non-blocking and close-on-exec.
    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}
