/// A listener's request head, read from the bytes it sent: the method, the path (without a query)
/// and the two headers the stream cares about. Bounded: a head longer than `maxBytes` is refused.
public struct StreamRequestHead: Equatable, Sendable {
    /// `GET` or `HEAD`.
    public var method: String
    /// The path, without `?query`.
    public var path: String
    /// The `Host` header, if any.
    public var host: String?
    /// True when the listener asked for ICY metadata (`Icy-MetaData: 1`).
    public var wantsMetadata: Bool

    /// A head as read.
    public init(method: String, path: String, host: String?, wantsMetadata: Bool) {
        self.method = method
        self.path = path
        self.host = host
        self.wantsMetadata = wantsMetadata
    }

    /// The longest head read: a player's request is a few hundred bytes.
    public static let maxBytes = 4096

    /// What the bytes received so far make.
    public enum Parsed: Equatable, Sendable {
        /// The head has not ended yet.
        case incomplete
        /// A whole head.
        case head(StreamRequestHead)
        /// Not a request the stream answers; the status to answer with.
        case refused(status: Int, why: String)
    }

    /// Reads `bytes` (all the listener sent so far).
    public static func parse(_ bytes: [UInt8]) -> Parsed {
        guard let end = headEnd(bytes) else {
            return bytes.count >= maxBytes ? .refused(status: 431, why: "request head too long") : .incomplete
        }
        guard end <= maxBytes else { return .refused(status: 431, why: "request head too long") }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        guard !lines.isEmpty else { return .refused(status: 400, why: "empty request") }
        let request = lines.removeFirst().split(separator: " ")
        guard request.count == 3, request[2].hasPrefix("HTTP/1."), request[1].hasPrefix("/") else {
            return .refused(status: 400, why: "not an HTTP/1 request")
        }
        guard request[0] == "GET" || request[0] == "HEAD" else { return .refused(status: 405, why: "method \(request[0])") }
        var head = StreamRequestHead(method: String(request[0]), path: String(request[1].prefix { $0 != "?" }), host: nil, wantsMetadata: false)
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            switch name {
            case "host":
                if head.host != nil { return .refused(status: 400, why: "two Host headers") }
                head.host = String(value)
            case "icy-metadata": head.wantsMetadata = value == "1"
            default: break
            }
        }
        return .head(head)
    }

    /// The index just past the blank line ending the head (CRLF CRLF, or LF LF).
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 10 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 { return index + 3 }
            }
            index += 1
        }
        return nil
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
