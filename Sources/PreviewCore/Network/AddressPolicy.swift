/// Which network addresses previewd connects to: public unicast ones only (the API's own origin
/// excepted, see `HTTPRequest.localOrigin`). It judges the address a connection is about to be made
/// to, after name resolution, not a URL's text, so no spelling of a host (octal, hex, decimal, short
/// or long forms, percent-encoding, a trailing dot, a name that resolves to 127.0.0.1) reaches a
/// service on this machine or its network. `PreviewURLPolicy` stays as a fast first filter.
public enum AddressPolicy {
    /// Why the IPv4 address `a` (4 bytes, network order) is not public unicast; nil when it is.
    public static func nonPublicReason(ipv4 a: [UInt8]) -> String? {
        guard a.count == 4 else { return "not an IPv4 address" }
        switch (a[0], a[1]) {
        case (0, _): return "an unspecified address"
        case (127, _): return "a loopback address"
        case (10, _), (172, 16...31), (192, 168): return "a private address"
        case (100, 64...127): return "a shared (carrier-grade NAT) address"
        case (169, 254): return "a link-local address"
        case (224...239, _): return "a multicast address"
        case (240...255, _), (198, 18...19): return "a reserved address"
        case (192, 0) where a[2] == 0: return "a reserved address"
        default: return nil
        }
    }

    /// Why the IPv6 address `b` (16 bytes, network order) is not public unicast; nil when it is.
    /// Addresses that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged
    /// by that address.
    public static func nonPublicReason(ipv6 b: [UInt8]) -> String? {
        guard b.count == 16 else { return "not an IPv6 address" }
        let zeros = { (range: Range<Int>) in b[range].allSatisfy { $0 == 0 } }
        if zeros(0..<16) { return "an unspecified address" }
        if zeros(0..<15), b[15] == 1 { return "a loopback address" }
        if zeros(0..<10), b[10] == 0xff, b[11] == 0xff { return nonPublicReason(ipv4: Array(b[12..<16])) }   // ::ffff:a.b.c.d
        if zeros(0..<12) { return nonPublicReason(ipv4: Array(b[12..<16])) ?? "an IPv4-compatible address" }   // ::a.b.c.d
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b, zeros(4..<12) {                          // 64:ff9b::/96
            return nonPublicReason(ipv4: Array(b[12..<16]))
        }
        if b[0] == 0x20, b[1] == 0x02 { return nonPublicReason(ipv4: Array(b[2..<6])) }                      // 6to4
        if b[0] & 0xfe == 0xfc { return "a unique-local address" }
        if b[0] == 0xfe, b[1] & 0xc0 == 0x80 { return "a link-local address" }
        if b[0] == 0xfe, b[1] & 0xc0 == 0xc0 { return "a site-local address" }
        if b[0] == 0xff { return "a multicast address" }
        if b[0] == 0x01, zeros(1..<8) { return "a reserved address" }                                        // 100::/64 discard
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return "a reserved address" }            // documentation
        return nil
    }

    /// Why an address a user named (a snapserver's) cannot be connected to: unspecified, multicast or
    /// broadcast; nil for any unicast address, loopback and private ones included. `bytes` is 4 or 16
    /// bytes in network order.
    public static func notUnicastReason(_ bytes: [UInt8]) -> String? {
        let reason = bytes.count == 4 ? nonPublicReason(ipv4: bytes) : nonPublicReason(ipv6: bytes)
        if bytes == [255, 255, 255, 255] { return "the broadcast address" }
        return reason == "an unspecified address" || reason == "a multicast address" ? reason : nil
    }

    /// The address in dotted decimal, for messages ("127.0.0.1").
    public static func text(ipv4 a: [UInt8]) -> String {
        a.map(String.init).joined(separator: ".")
    }

    /// The IPv6 address in full hexadecimal groups (no zero compression), for messages.
    public static func text(ipv6 b: [UInt8]) -> String {
        stride(from: 0, to: b.count - 1, by: 2).map { String(UInt16(b[$0]) << 8 | UInt16(b[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
