#if canImport(Glibc)
import Glibc
#endif

/// This machine's addresses and name, for the hosts a wildcard listener serves and the pairing URL.
enum NetworkInterfaces {
    /// Every IPv4 and IPv6 address of the machine's interfaces (getifaddrs), IPv4 first.
    static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = [], v6: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var a = sin.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &a, &text, socklen_t(text.count))
                }
                v4.append(String(cText: text))
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var a = sin6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &a, &text, socklen_t(text.count))
                }
                let name = String(cText: text)
                if !name.lowercased().hasPrefix("fe80") { v6.append(name) }  // link-local needs a zone: not for URLs
            default: continue
            }
        }
        return v4 + v6
    }

    /// The first IPv4 address that is not loopback, for a pairing URL when listening on 0.0.0.0.
    static func firstNonLoopbackIPv4() -> String? {
        addresses().first { IPText.isIPv4($0) && !IPText.isLoopback($0) }
    }

    /// The machine's host name (gethostname), lowercased.
    static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(cText: buffer).lowercased()
        return name.isEmpty ? nil : name
    }
}
