import CPreviewLinux
import Glibc
import PreviewCore

/// A snapserver's `tcp` source in server mode as the far end (`--output snapcast://HOST:PORT`): the
/// address resolved, judged and connected to without blocking the output's thread past a deadline.
extension StreamDestination {
    /// Resolves `host` and connects to each address in turn until one answers. Addresses are judged
    /// as addresses (no unspecified, multicast or broadcast), after resolution.
    static func connect(host: String, port: UInt16, deadline: UInt64, wakeFD: Int32, abandoned: () -> Bool) -> Opened {
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
        guard fd >= 0 else { return .failed(Self.errorText()) }
        var size = kernelBuffer
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return .ready(fd) }
        guard errno == EINPROGRESS else { defer { Glibc.close(fd) }; return .failed(Self.errorText()) }
        var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        while true {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline, !abandoned() else { Glibc.close(fd); return .failed("no answer") }
            fds[0].revents = 0
            fds[1].revents = 0
            let timeout = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            guard poll(&fds, 2, timeout) >= 0 || errno == EINTR else { defer { Glibc.close(fd) }; return .failed(Self.errorText()) }
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

extension OutputRegistry.Entry {
    /// `--output snapcast://HOST:PORT`: a snapserver's `tcp` source in server mode.
    static let snapcast = OutputRegistry.Entry(usage: "snapcast://HOST:PORT", mpdPlugin: "snapcast", playsToDevice: false, claims: { $0.hasPrefix(SnapcastAddress.scheme) }) { options in
        let address = try SnapcastAddress(parsing: options.output)
        try options.refusePulseOptions()
        try options.refuseALSAOptions()
        try options.acceptSettings([])
        return stream(to: .snapcast(host: address.host, port: address.port), options)
    }
}
