import PreviewCore
import XCTest

/// Which addresses previewd connects to, as addresses: public unicast only.
final class AddressPolicyTests: XCTestCase {
    private func v4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }

    /// The 16 bytes of an IPv6 address written in full groups (no "::").
    private func v6(_ groups: [UInt16]) -> [UInt8] { groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } }

    func testIPv4() {
        let table: [(String, String?)] = [
            ("17.253.144.10", nil), ("8.8.8.8", nil), ("100.63.255.255", nil), ("100.128.0.1", nil), ("172.15.0.1", nil),
            ("172.32.0.1", nil), ("192.169.0.1", nil), ("223.255.255.255", nil), ("192.0.1.1", nil),
            ("0.0.0.0", "an unspecified address"), ("0.1.2.3", "an unspecified address"),
            ("127.0.0.1", "a loopback address"), ("127.255.0.9", "a loopback address"),
            ("10.0.0.1", "a private address"), ("172.16.0.1", "a private address"), ("172.31.255.255", "a private address"),
            ("192.168.1.1", "a private address"), ("100.64.0.1", "a shared (carrier-grade NAT) address"),
            ("100.127.255.255", "a shared (carrier-grade NAT) address"), ("169.254.169.254", "a link-local address"),
            ("224.0.0.1", "a multicast address"), ("239.255.255.250", "a multicast address"),
            ("240.0.0.1", "a reserved address"), ("255.255.255.255", "a reserved address"), ("198.18.0.1", "a reserved address"),
            ("192.0.0.8", "a reserved address"),
        ]
        for (address, reason) in table {
            XCTAssertEqual(AddressPolicy.nonPublicReason(ipv4: v4(address)), reason, address)
        }
    }

    func testIPv6() {
        let table: [([UInt16], String?)] = [
            ([0x2a01, 0xb740, 0xa20, 0, 0, 0, 0, 0x10], nil),                             // a public address
            ([0, 0, 0, 0, 0, 0, 0, 0], "an unspecified address"),
            ([0, 0, 0, 0, 0, 0, 0, 1], "a loopback address"),
            ([0, 0, 0, 0, 0, 0xffff, 0x7f00, 0x0001], "a loopback address"),             // ::ffff:127.0.0.1
            ([0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001], "a private address"),               // ::ffff:10.0.0.1
            ([0, 0, 0, 0, 0, 0xffff, 0x11fd, 0x900a], nil),                              // ::ffff:17.253.144.10
            ([0, 0, 0, 0, 0, 0, 0x7f00, 0x0001], "a loopback address"),                  // ::127.0.0.1
            ([0, 0, 0, 0, 0, 0, 0x11fd, 0x900a], "an IPv4-compatible address"),           // ::17.253.144.10 (deprecated)
            ([0x64, 0xff9b, 0, 0, 0, 0, 0xc0a8, 0x0101], "a private address"),            // NAT64 of 192.168.1.1
            ([0x2002, 0x7f00, 0x0001, 0, 0, 0, 0, 1], "a loopback address"),             // 6to4 of 127.0.0.1
            ([0xfc00, 0, 0, 0, 0, 0, 0, 1], "a unique-local address"),
            ([0xfd12, 0x3456, 0, 0, 0, 0, 0, 1], "a unique-local address"),
            ([0xfe80, 0, 0, 0, 0, 0, 0, 1], "a link-local address"),
            ([0xfebf, 0, 0, 0, 0, 0, 0, 1], "a link-local address"),
            ([0xfec0, 0, 0, 0, 0, 0, 0, 1], "a site-local address"),
            ([0xff02, 0, 0, 0, 0, 0, 0, 1], "a multicast address"),
            ([0x0100, 0, 0, 0, 0, 0, 0, 1], "a reserved address"),
            ([0x2001, 0x0db8, 0, 0, 0, 0, 0, 1], "a reserved address"),
        ]
        for (groups, reason) in table {
            XCTAssertEqual(AddressPolicy.nonPublicReason(ipv6: v6(groups)), reason, AddressPolicy.text(ipv6: v6(groups)))
        }
    }

    func testTextForMessages() {
        XCTAssertEqual(AddressPolicy.text(ipv4: v4("127.0.0.1")), "127.0.0.1")
        XCTAssertEqual(AddressPolicy.text(ipv6: v6([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1])), "0:0:0:0:0:ffff:7f00:1")
    }
}
