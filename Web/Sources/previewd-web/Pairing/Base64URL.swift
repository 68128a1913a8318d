/// base64url without padding (RFC 4648 §5): a token that needs no escaping in a URL or a cookie.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var chunk = UInt32(bytes[i]) << 16
            if n > 1 { chunk |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { chunk |= UInt32(bytes[i + 2]) }
            for k in 0...n { out.append(alphabet[Int((chunk >> (18 - 6 * UInt32(k))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
