#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore

/// Where previewd serves MPD's protocol, from `--mpd` (repeatable: a socket path or `HOST:PORT`;
/// `off`) and `--mpd-password`. By default a private socket, `$XDG_RUNTIME_DIR/previewd/mpd.sock`
/// (0600 in a 0700 folder). TCP only when asked, and beyond loopback only with a password: MPD's
/// protocol is clear text and can empty the queue, so an open port must at least ask for one.
public struct MPDListenPlan: Equatable, Sendable {
    /// The addresses to listen on (none: off).
    public var addresses: [ListenAddress]
    /// The password clients must give, if any.
    public var password: String?
    /// True when the address is the default one (if it is taken, previewd serves on without it).
    public var isDefault: Bool

    /// The plan `--mpd values` and `--mpd-password password` ask for, or why it cannot be served.
    public init(values: [String], password: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FrontEndError) {
        self.password = password
        if let password, password.isEmpty || password.contains(where: { $0.isNewline }) {
            throw FrontEndError("--mpd-password must be one line, not empty")
        }
        if values.isEmpty {
            addresses = [.unix(Self.defaultPath(environment: environment))]
            isDefault = true
            return
        }
        isDefault = false
        if values.contains("off") {
            guard values.count == 1 else { throw FrontEndError("--mpd off cannot be given with an address") }
            addresses = []
            return
        }
        addresses = []
        for value in values {
            let address: ListenAddress
            do throws(ListenerError) { address = try ListenAddress(parsing: value) } catch { throw FrontEndError("--mpd \(value): \(error.message)") }
            if case .tcp(let host, _) = address, !Self.isLoopback(host: host), password == nil {
                throw FrontEndError("--mpd \(value): \(host) is not a loopback address; MPD's protocol is clear text and steers the player, so previewd serves it beyond this machine only with --mpd-password")
            }
            addresses.append(address)
        }
    }

    /// `$XDG_RUNTIME_DIR/previewd/mpd.sock`, or `/tmp/previewd-UID/mpd.sock` without it.
    public static func defaultPath(environment: [String: String]) -> String {
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty {
            return (dir.hasSuffix("/") ? dir : dir + "/") + "previewd/mpd.sock"
        }
        return SocketPath.fallbackDirectory() + "/mpd.sock"
    }

    /// True for `localhost`, 127.0.0.0/8, `::1` and `::ffff:127.x.x.x`: only this machine reaches it.
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
    }
}
