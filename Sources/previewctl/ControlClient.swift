#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CPreviewLinux
import Glibc
import PreviewCore

/// previewctl's side of the control socket: connect, send one request line, read one response line.
struct ControlClient {
    /// Why the daemon could not be asked.
    enum Failure: Error {
        /// Nothing answers on the socket (exit status 3).
        case unreachable(path: String, reason: String)
        /// Whatever listens there may not be previewd of this user's (exit status 3).
        case untrusted(path: String, reason: String)
        /// The connection broke or the answer was not a response (exit status 4).
        case protocolError(String)
        /// previewd answered with an error.
        case refused(ControlError)
    }

    let path: String
    /// How long to wait for an answer; a search goes to the network, so this is generous.
    var timeoutSeconds = 60

    /// Sends `command` and returns the daemon's response.
    func send(_ command: ControlCommand) throws(Failure) -> ControlResponse {
        try send(command, as: ControlResponse.self)
    }

    /// Sends `command` and decodes the daemon's response line as `Answer` (in one pass, so a
    /// result can be decoded straight into its report type).
    func send<Answer: Decodable>(_ command: ControlCommand, as: Answer.Type) throws(Failure) -> Answer {
        let fd = try dial(command)
        defer { close(fd) }
        var reader = LineReader(fd: fd, timeoutSeconds: timeoutSeconds)
        guard let first = try reader.next() else { throw .protocolError("previewd closed the connection without answering") }
        do { return try JSONDecoder().decode(Answer.self, from: Data(first)) }
        catch { throw .protocolError("previewd's answer is not a response") }
    }

    /// Sends `command` (a subscribe) and hands every line after its answer to `onLine` until the
    /// connection ends.
    func stream(_ command: ControlCommand, onLine: ([UInt8]) -> Void) throws(Failure) {
        let fd = try dial(command)
        defer { close(fd) }
        var reader = LineReader(fd: fd, timeoutSeconds: nil)
        guard let first = try reader.next() else { throw .protocolError("previewd closed the connection without answering") }
        guard let answer = try? JSONDecoder().decode(ControlResponse.self, from: Data(first)) else {
            throw .protocolError("previewd's answer is not a response")
        }
        guard answer.ok else { throw .refused(answer.error ?? ControlError(.internal, "refused")) }
        while let line = try reader.next() { onLine(line) }
    }

    /// Connects and sends `command`; returns the descriptor. Before a byte is written, the socket's
    /// folder must be safe (`SocketPath.folderProblem`) and the process listening must be this user's
    /// (SO_PEERCRED): a socket planted by someone else never sees a request.
    private func dial(_ command: ControlCommand) throws(Failure) -> Int32 {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
        var info = stat()
        if lstat(folder, &info) == 0, let why = SocketPath.folderProblem(isDirectory: (info.st_mode & S_IFMT) == S_IFDIR,
                                                                         owner: info.st_uid, mode: info.st_mode, user: getuid()) {
            throw .untrusted(path: path, reason: "its folder \(folder) is not safe: \(why)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .unreachable(path: path, reason: String(cString: strerror(errno))) }
        var ok = false
        defer { if !ok { close(fd) } }
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
        var peer: uid_t = 0
        guard cpl_peer_uid(fd, &peer) == 0 else { throw .unreachable(path: path, reason: String(cString: strerror(errno))) }
        guard peer == getuid() else {
            throw .untrusted(path: path, reason: "the process listening there runs as uid \(peer), not as you (uid \(getuid()))")
        }
        guard let line = JSONLine.encode(command.request(id: 1)) else { throw .protocolError("cannot encode request") }
        var offset = 0
        while offset < line.count {
            let n = line[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw .protocolError("connection closed while sending: \(String(cString: strerror(errno)))") }
            offset += n
        }

        ok = true
        return fd
    }
}

/// Reads newline-framed lines from a socket, with an optional timeout per read.
private struct LineReader {
    let fd: Int32
    let timeoutSeconds: Int?
    var framer = LineFramer(maxLineLength: 16 << 20)
    var ready: [[UInt8]] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(fd: Int32, timeoutSeconds: Int?) {
        self.fd = fd
        self.timeoutSeconds = timeoutSeconds
        if let timeoutSeconds {
            var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// The next line, or nil at the end of the stream.
    mutating func next() throws(ControlClient.Failure) -> [UInt8]? {
        while ready.isEmpty {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw .protocolError("previewd did not answer within \(timeoutSeconds ?? 0) s")
            }
            guard n > 0 else { return nil }
            do { ready = try framer.feed(buffer[..<n]) } catch { throw .protocolError("answer too long") }
        }
        return ready.removeFirst()
    }
}
