import Foundation
import Glibc

/// A bare MPD client on a real socket, for what mpc and python-mpd2 will not send: garbage, an
/// unknown command, an HTTP request, a huge line, an idle held open. Reads time out after 10 s.
final class MPDRawClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The greeting line (`OK MPD 0.23.5`).
    private(set) var greeting = ""

    /// Connects to the Unix socket at `path` (or TCP `port` on 127.0.0.1) and reads the greeting.
    init(path: String? = nil, port: UInt16? = nil) throws {
        if let port {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard ok == 0 else { close(fd); throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
        } else {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in (path ?? "").utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
            }
            let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            guard ok == 0 else { close(fd); throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        greeting = readLine() ?? ""
    }

    deinit { close(fd) }

    /// Sends `bytes` as they are; false when the peer is gone.
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Sends `text` and a newline.
    @discardableResult
    func send(_ text: String) -> Bool { send(bytes: Array((text + "\n").utf8)) }

    /// The next line without its newline; nil at the end of the stream (or after 10 s of silence).
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    /// The lines of one answer, through its `OK` or `ACK` line; nil when the connection ended first.
    func response() -> [String]? {
        var lines: [String] = []
        while let line = readLine() {
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
        return nil
    }

    /// Sends `command` (`albumart`, `readpicture`) and returns its answer's lines and its binary
    /// chunk (`binary: N`, N bytes, a newline), read as bytes: a chunk may hold any byte.
    func askBinary(_ command: String) -> (lines: [String], data: [UInt8])? {
        guard send(command) else { return nil }
        var lines: [String] = []
        var data: [UInt8] = []
        while let line = readLine() {
            if line.hasPrefix("binary: "), let count = Int(line.dropFirst(8)) {
                while buffer.count < count + 1 {
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let n = recv(fd, &chunk, chunk.count, 0)
                    guard n > 0 else { return nil }
                    buffer += chunk[..<n]
                }
                data = Array(buffer[..<count])
                buffer.removeSubrange(...count)
                continue
            }
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return (lines, data) }
        }
        return nil
    }

    /// Sends `command` and returns its answer.
    func ask(_ command: String) -> [String]? {
        guard send(command) else { return nil }
        return response()
    }

    /// True when the server closed the connection (nothing more comes within 10 s).
    func isClosedByServer() -> Bool {
        while readLine() != nil {}
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }
}
