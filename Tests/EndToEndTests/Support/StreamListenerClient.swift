import Foundation
import Glibc
import PreviewTestSupport

/// A raw HTTP listener of previewd's stream, for what a player does not show: the answer's status
/// and headers, ICY blocks, a listener that never reads. Blocking reads with a timeout, on the
/// test's thread.
final class StreamListenerClient {
    let fd: Int32
    /// The answer's status line and headers, once read.
    private(set) var head = ""
    /// Bytes after the head not yet taken by `readAudio`.
    private var rest: [UInt8] = []

    /// Connects to 127.0.0.1:`port` and sends a GET of `path` (with `Icy-MetaData: 1` when
    /// `metadata`, `host` as the Host header; without `endHead`, the head never ends). `receiveBuffer` shrinks the socket's receive buffer
    /// (a listener that stops reading fills it soon).
    init(port: UInt16, path: String, host: String? = nil, metadata: Bool = false, receiveBuffer: Int32? = nil, endHead: Bool = true) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw TestSupportError("cannot connect to port \(port): errno \(errno)") }
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUser-Agent: previewd-tests\r\n"
            + (metadata ? "Icy-MetaData: 1\r\n" : "") + (endHead ? "\r\n" : "")
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(fd) }

    /// The local port (the server's view of this listener).
    var localPort: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Reads the answer's head; returns its status code (nil: the connection ended first).
    func readHead() -> Int? {
        var bytes: [UInt8] = []
        while true {
            if let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                head = String(decoding: bytes[..<end], as: UTF8.self)
                rest = Array(bytes[(end + 4)...])
                return head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            bytes += chunk[..<n]
        }
    }

    /// A header's value in the answer's head.
    func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// Reads `count` more bytes (fewer if the connection ends or stalls for 5 s).
    func read(_ count: Int) -> [UInt8] {
        var bytes = rest
        rest = []
        while bytes.count < count {
            var chunk = [UInt8](repeating: 0, count: min(65_536, count - bytes.count))
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        if bytes.count > count { rest = Array(bytes[count...]); bytes.removeSubrange(count...) }
        return bytes
    }

    /// Reads the stream with ICY metadata every `interval` bytes until `done` says so (given the
    /// titles so far) or the connection ends; returns the titles in the order they came.
    func readTitles(interval: Int, until done: ([String]) -> Bool) -> [String] {
        var titles: [String] = []
        while !done(titles) {
            guard read(interval).count == interval, let length = read(1).first else { break }
            let block = read(Int(length) * 16)
            guard block.count == Int(length) * 16 else { break }
            if length > 0 { titles.append(String(decoding: block.prefix { $0 != 0 }, as: UTF8.self)) }
        }
        return titles
    }

    /// True once the server has closed the connection: reads (and forgets) what is buffered first.
    func endsWithin(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return true }
            if n < 0 { return false }
        }
        return false
    }
}
