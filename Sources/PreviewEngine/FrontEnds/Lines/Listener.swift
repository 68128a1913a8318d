import CPreviewLinux
import Glibc
import PreviewCore

/// One listening socket of a `LineServer`. A Unix socket is made private (mode 0600, in a folder
/// that is ours) and its peers' uid is checked (SO_PEERCRED); a TCP socket listens where asked.
/// Immutable once made; `LineServer` watches it on the engine loop and closes it.
public final class Listener: Sendable {
    /// The listening descriptor (non-blocking, close-on-exec).
    public let fd: Int32
    /// Where it listens.
    public let address: ListenAddress
    /// False when systemd made the socket (socket activation): it is then neither replaced nor removed.
    let ownsPath: Bool

    private init(fd: Int32, address: ListenAddress, ownsPath: Bool) {
        self.fd = fd
        self.address = address
        self.ownsPath = ownsPath
        UnixSocket.makeNonBlocking(fd)
    }

    /// Binds and listens on `address`. A Unix socket: refused when another previewd answers on the
    /// path, a stale socket replaced, its folder made (0700) if missing and checked.
    public static func bind(_ address: ListenAddress) throws(ListenerError) -> Listener {
        switch address {
        case .unix(let path): return Listener(fd: try bindUnix(path), address: address, ownsPath: true)
        case .tcp(let host, let port): return Listener(fd: try bindTCP(host: host, port: port), address: address, ownsPath: false)
        }
    }

    /// Refused when another previewd answers on `path`: asked before anything else starts (the
    /// output, the network), so a second previewd touches nothing on its way out. `bind` asks again.
    public static func checkNotServed(_ path: String) throws(ListenerError) {
        if UnixSocket.answers(path) { throw .alreadyRunning(path) }
    }

    /// A listening Unix socket systemd handed over (`SocketActivation`): systemd made the file and keeps it.
    public static func adopting(_ fd: Int32, path: String?) -> Listener {
        Listener(fd: fd, address: .unix(path ?? "(socket activation)"), ownsPath: false)
    }

    /// Peers must run as this user: true for Unix sockets.
    var checksPeer: Bool { if case .unix = address { true } else { false } }

    /// The port a TCP socket is bound to (the one chosen when asked for port 0).
    public var port: UInt16? {
        guard case .tcp = address else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafeBytes(of: storage) { raw in   // sin_port and sin6_port sit at the same offset
            UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
        }
    }

    /// True when only this machine can connect: a Unix socket, or TCP bound to a loopback address
    /// (127.0.0.0/8, ::1, ::ffff:127.x.x.x).
    public var isLoopback: Bool {
        guard case .tcp = address else { return true }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return false }
        return withUnsafeBytes(of: storage) { raw in
            switch Int32(storage.ss_family) {
            case AF_INET: return raw[4] == 127
            case AF_INET6:
                let address = Array(raw[8..<24])
                if address == [UInt8](repeating: 0, count: 15) + [1] { return true }
                return address[0..<10].allSatisfy { $0 == 0 } && address[10] == 0xff && address[11] == 0xff && address[12] == 127
            default: return false
            }
        }
    }

    /// Removes the socket file, if this listener made it. Any thread.
    func removeFile() {
        if ownsPath, case .unix(let path) = address { unlink(path) }
    }

    /// The socket's folder must be ours (or root's), and not writable by others unless sticky (/tmp):
    /// a /tmp/previewd-UID made by someone else could hand them our socket.
    public static func checkOwnership(of directory: String) throws(ListenerError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw .system(call: "lstat", errno: errno, path: directory) }
        if let why = SocketPath.folderProblem(isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, owner: info.st_uid,
                                              mode: info.st_mode, user: getuid()) {
            throw .unsafeDirectory(directory, why: why)
        }
    }

    private static func bindUnix(_ path: String) throws(ListenerError) -> Int32 {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty, mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw .system(call: "mkdir", errno: errno, path: directory)
        }
        try checkOwnership(of: directory.isEmpty ? "." : directory)
        if UnixSocket.answers(path) { throw .alreadyRunning(path) }
        unlink(path)   // stale socket from a previewd that died

        let fd = try UnixSocket.make(path: path)
        // Created private: no window in which another user could connect before chmod.
        let oldMask = umask(0o177)
        let bound = try UnixSocket.withAddress(path) { Glibc.bind(fd, $0, $1) }
        umask(oldMask)
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "bind", errno: code, path: path)
        }
        chmod(path, 0o600)
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "listen", errno: code, path: path)
        }
        return fd
    }

    private static func bindTCP(host: String, port: UInt16) throws(ListenerError) -> Int32 {
        let name = ListenAddress.tcp(host: host, port: port).description
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = CPL_SOCK_STREAM
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw .badAddress(name, why: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var failure = ListenerError.badAddress(name, why: "no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            let fd = socket(info.ai_family, CPL_SOCK_STREAM | CPL_SOCK_CLOEXEC, 0)
            guard fd >= 0 else {
                failure = .system(call: "socket", errno: errno, path: name)
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if info.ai_family == AF_INET6 {   // [::] means IPv6 only; 0.0.0.0 is asked for apart
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            guard Glibc.bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
                failure = .system(call: "bind", errno: errno, path: name)
                close(fd)
                continue
            }
            guard listen(fd, 64) == 0 else {
                failure = .system(call: "listen", errno: errno, path: name)
                close(fd)
                continue
            }
            return fd
        }
        throw failure
    }
}
