import CPreviewLinux
import Glibc
import PreviewCore

/// The far end of a `StreamOutput`: a snapserver's `tcp` source (server mode) or a FIFO. Opening gives
/// a non-blocking descriptor ready to write PCM to, or why there is none yet.
enum StreamDestination: Sendable, CustomStringConvertible {
    case snapcast(host: String, port: UInt16)
    case fifo(path: String)

    /// How an attempt ended.
    enum Opened {
        case ready(Int32)
        case failed(String)
    }

    /// The PCM bytes a FIFO holds, or a socket's send buffer: about 85 ms of s16 stereo at 48 kHz, so
    /// what was written but not yet read stays small (pause and skip are heard soon after the command).
    static let kernelBuffer: Int32 = 16_384

    var description: String {
        switch self {
        case .snapcast(let host, let port): return SnapcastAddress(host: host, port: port).description
        case .fifo(let path): return "pipe:\(path)"
        }
    }

    /// True when writes may raise SIGPIPE (a FIFO; sockets use MSG_NOSIGNAL).
    var isFIFO: Bool { if case .fifo = self { true } else { false } }

    /// Opens the destination. A TCP connection may take until `deadline` (CLOCK_MONOTONIC ns); a
    /// signal on `wakeFD` ends the wait early when `abandoned()` says so (the output is closing).
    func open(deadline: UInt64, wakeFD: Int32, abandoned: () -> Bool) -> Opened {
        switch self {
        case .snapcast(let host, let port): return Self.connect(host: host, port: port, deadline: deadline, wakeFD: wakeFD, abandoned: abandoned)
        case .fifo(let path): return Self.openFIFO(path)
        }
    }

    /// Why `path` cannot be a FIFO output at all (checked at start): it exists and is not a FIFO, or
    /// its folder does not exist. nil when it can.
    static func problem(withFIFO path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFIFO ? nil : "\(path) exists and is not a FIFO"
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return folder.isEmpty || stat(folder, &info) == 0 ? nil : "the folder of \(path) does not exist"
    }

    // MARK: FIFO

    /// Opens the FIFO's write end without waiting: ENXIO means no reader yet (snapserver not running),
    /// reported as such and tried again later. Missing, the FIFO is made (as MPD's fifo output does).
    private static func openFIFO(_ path: String) -> Opened {
        if let problem = problem(withFIFO: path) { return .failed(problem) }
        if access(path, F_OK) != 0, mkfifo(path, 0o644) != 0, errno != EEXIST {
            return .failed("cannot make the FIFO \(path): \(errorText())")
        }
        let fd = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failed(errno == ENXIO ? "nothing reads the FIFO \(path)" : "cannot open the FIFO \(path): \(errorText())")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            Glibc.close(fd)
            return .failed("\(path) is not a FIFO")
        }
        _ = cpl_set_pipe_size(fd, kernelBuffer)   // best effort: a smaller pipe holds less unheard audio
        return .ready(fd)
    }

    // MARK: TCP

    /// Resolves `host` and connects to each address in turn until one answers. Addresses are judged
    /// as addresses (no unspecified, multicast or broadcast), after resolution.
    private static func connect(host: String, port: UInt16, deadline: UInt64, wakeFD: Int32, abandoned: () -> Bool) -> Opened {
        var hints = addrinfo()
        hints.ai_socktype = CPL_SOCK_STREAM
        hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            return .failed("cannot resolve snapserver \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var why = "snapserver \(host) has no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            entry = info.pointee.ai_next
            let bytes = addressBytes(info.pointee)
            guard let bytes else { continue }
            if let refusal = AddressPolicy.notUnicastReason(bytes) {
                why = "snapserver \(host) resolves to \(refusal)"
                continue
            }
            switch attempt(info.pointee, deadline: deadline, wakeFD: wakeFD, abandoned: abandoned) {
            case .ready(let fd): return .ready(fd)
            case .failed(let reason): why = "cannot connect to snapserver \(describe(bytes)) port \(port): \(reason)"
            }
            if abandoned() { break }
        }
        return .failed(why)
    }

    /// One non-blocking connect, waited for in `poll` with the output's eventfd.
    private static func attempt(_ info: addrinfo, deadline: UInt64, wakeFD: Int32, abandoned: () -> Bool) -> Opened {
        let fd = socket(info.ai_family, CPL_SOCK_STREAM | CPL_SOCK_NONBLOCK | CPL_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { return .failed(errorText()) }
        var size = kernelBuffer
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return .ready(fd) }
        guard errno == EINPROGRESS else { defer { Glibc.close(fd) }; return .failed(errorText()) }
        var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        while true {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline, !abandoned() else { Glibc.close(fd); return .failed("no answer") }
            fds[0].revents = 0
            fds[1].revents = 0
            let timeout = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            guard poll(&fds, 2, timeout) >= 0 || errno == EINTR else { defer { Glibc.close(fd) }; return .failed(errorText()) }
            if fds[1].revents != 0 { cpl_eventfd_drain(wakeFD) }   // the output's loop looks at its state again anyway
            guard fds[0].revents != 0 else { continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { Glibc.close(fd); return .failed(String(cString: strerror(error))) }
            return .ready(fd)
        }
    }

    /// The address of a resolved entry (4 or 16 bytes, network order).
    private static func addressBytes(_ info: addrinfo) -> [UInt8]? {
        guard let address = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
        default: return nil
        }
    }

    private static func describe(_ bytes: [UInt8]) -> String {
        bytes.count == 4 ? AddressPolicy.text(ipv4: bytes) : AddressPolicy.text(ipv6: bytes)
    }
}

private func errorText() -> String { String(cString: strerror(errno)) }

extension OutputRegistry.Entry {
    /// `--output snapcast://HOST:PORT`: a snapserver's `tcp` source in server mode.
    static let snapcast = OutputRegistry.Entry(usage: "snapcast://HOST:PORT", claims: { $0.hasPrefix(SnapcastAddress.scheme) }) { options in
        let address = try SnapcastAddress(parsing: options.output)
        try options.refusePulseOptions()
        return stream(to: .snapcast(host: address.host, port: address.port), options)
    }

    /// `--output pipe:PATH`: a FIFO, made if missing (snapserver's `pipe` source).
    static let pipe = OutputRegistry.Entry(usage: "pipe:PATH", claims: { $0.hasPrefix(PipePath.scheme) }) { options in
        let fifo = try PipePath(parsing: options.output)
        try options.refusePulseOptions()
        if let problem = StreamDestination.problem(withFIFO: fifo.path) { throw OutputValueError("--output \(fifo): \(problem)") }
        return stream(to: .fifo(path: fifo.path), options)
    }

    private static func stream(to destination: StreamDestination, _ options: OutputOptions) -> @Sendable () -> any AudioOutput {
        var configuration = StreamOutput.Configuration()
        configuration.latencyMs = options.latencyMs
        return { [configuration] in StreamOutput(destination: destination, configuration: configuration) }
    }
}
