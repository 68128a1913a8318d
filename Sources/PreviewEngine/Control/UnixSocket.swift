import CPreviewLinux
import Glibc

/// Small helpers over Glibc's Unix-domain sockets: one path from a failing call to a Swift error.
enum UnixSocket {
    /// Runs `body` with `path` as a sockaddr_un.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(ControlServerError) -> T {
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
    static func make(path: String) throws(ControlServerError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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

    /// True when the peer has closed its end; anything it sent meanwhile is read and dropped.
    static func peerHasLeft(_ fd: Int32) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 512)
        for _ in 0..<64 {   // bounded: a client that floods cannot hold this thread here
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { continue }
            if n == 0 { return true }
            return !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
        return false
    }

    /// The uid of the process at the other end of `fd` (SO_PEERCRED).
    static func peerUID(_ fd: Int32) -> uid_t? {
        var uid: uid_t = 0
        return cpl_peer_uid(fd, &uid) == 0 ? uid : nil
    }

    /// Sets the send timeout of `fd` (a client that stops reading cannot block a write for longer).
    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sets the receive timeout of `fd`: a recv waiting longer fails with EAGAIN.
    static func setReceiveTimeout(_ fd: Int32, seconds: Double) {
        let whole = max(0, seconds.rounded(.down))
        var tv = timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }
}
