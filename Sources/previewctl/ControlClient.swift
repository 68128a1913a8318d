import Foundation
import Glibc
import PreviewCore

/// previewctl's side of the control socket: connect, send one request line, read one response line.
struct ControlClient {
    /// Why the daemon could not be asked.
    enum Failure: Error {
        /// Nothing answers on the socket (exit status 3).
        case unreachable(path: String, reason: String)
        /// The connection broke or the answer was not a response (exit status 4).
        case protocolError(String)
    }

    let path: String
    /// How long to wait for an answer; a search goes to the network, so this is generous.
    var timeoutSeconds = 60

    /// Sends `command` and returns the daemon's response.
    func send(_ command: ControlCommand) throws(Failure) -> ControlResponse {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .unreachable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .unreachable(path: path, reason: "socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw .unreachable(path: path, reason: String(cString: strerror(errno))) }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))

        guard var line = try? JSONEncoder().encode(command.request(id: 1)) else { throw .protocolError("cannot encode request") }
        line.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < line.count {
            let n = line[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw .protocolError("connection closed while sending: \(String(cString: strerror(errno)))") }
            offset += n
        }

        var framer = LineFramer(maxLineLength: 16 << 20)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw .protocolError("previewd did not answer within \(timeoutSeconds) s") }
            guard n > 0 else { throw .protocolError("previewd closed the connection without answering") }
            let lines: [[UInt8]]
            do { lines = try framer.feed(buffer[..<n]) } catch { throw .protocolError("answer too long") }
            if let first = lines.first {
                do { return try JSONDecoder().decode(ControlResponse.self, from: Data(first)) }
                catch { throw .protocolError("previewd's answer is not a response") }
            }
        }
    }
}
