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
    func send(_ command: ControlCommand, whileWaiting: String? = nil) throws(Failure) -> ControlResponse {
        try send(command, as: ControlResponse.self, whileWaiting: whileWaiting)
    }

    /// Sends `command` and decodes the daemon's response line as `Answer` (in one pass, so a
    /// result can be decoded straight into its report type).
    /// `whileWaiting`, when given, is shown (on stderr, a terminal) if no answer came within 150 ms,
    /// and erased once it comes.
    func send<Answer: Decodable>(_ command: ControlCommand, as: Answer.Type, whileWaiting: String? = nil) throws(Failure) -> Answer {
        let fd = try dial(command)
        defer { close(fd) }
        var reader = LineReader(fd: fd, timeoutSeconds: timeoutSeconds)
        var indicator = whileWaiting.map { WaitIndicator(text: $0, fd: fd) }
        indicator?.showIfSlow()
        defer { indicator?.erase() }
        guard let first = try reader.next() else { throw .protocolError("previewd closed the connection without answering") }
        do { return try JSONDecoder().decode(Answer.self, from: Data(first)) }
        catch { throw .protocolError("previewd's answer is not a response") }
    }

    /// Sends `command` (a subscribe), calls `onSubscribed` once previewd has taken it, and hands every
    /// line after its answer to `onLine` until the connection ends.
    func stream(_ command: ControlCommand, onSubscribed: () -> Void = {}, onLine: ([UInt8]) -> Void) throws(Failure) {
        var events = try subscribe(command)
        defer { events.close() }
        onSubscribed()
        while let line = try events.reader.next() { onLine(line) }
    }

    /// Sends `command` (a subscribe) and returns the stream of event lines after its answer, for a
    /// caller that waits for it in `poll` (`EventStream.fd`).
    func subscribe(_ command: ControlCommand) throws(Failure) -> EventStream {
        let fd = try dial(command)
        var events = EventStream(reader: LineReader(fd: fd, timeoutSeconds: nil))
        do throws(Failure) {
            guard let first = try events.reader.next() else { throw Failure.protocolError("previewd closed the connection without answering") }
            guard let answer = try? JSONDecoder().decode(ControlResponse.self, from: Data(first)) else {
                throw Failure.protocolError("previewd's answer is not a response")
            }
            guard answer.ok else { throw Failure.refused(answer.error ?? ControlError(.internal, "refused")) }
        } catch {
            events.close()
            throw error
        }
        return events
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

/// A subscription's event lines.
struct EventStream {
    fileprivate var reader: LineReader
    /// The socket, to wait for in `poll`.
    var fd: Int32 { reader.fd }

    /// The lines that one read brings (after those already framed); nil when previewd closed the
    /// connection. Call when `poll` says the socket is readable.
    mutating func available() throws(ControlClient.Failure) -> [[UInt8]]? {
        try reader.readOnce()
    }

    /// Closes the connection.
    func close() { Glibc.close(reader.fd) }
}

/// "searching…" on stderr while previewd works on a slow command: shown after 150 ms without an
/// answer, erased when it comes. Only when both stdout and stderr are terminals.
private struct WaitIndicator {
    let text: String
    let fd: Int32
    private(set) var shown = false

    init(text: String, fd: Int32) {
        self.text = text
        self.fd = fd
    }

    /// Waits up to 150 ms for the answer to start; shows the text when it has not.
    mutating func showIfSlow() {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return }
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 150) == 0 else { return }
        Output.write(text, to: STDERR_FILENO)
        shown = true
    }

    /// Takes the text off the line again.
    func erase() {
        if shown { Output.write("\r\u{1B}[K", to: STDERR_FILENO) }
    }
}

/// Reads newline-framed lines from a socket, with an optional timeout per read.
fileprivate struct LineReader {
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

    /// What one read brings, framed (the lines already framed first); nil at the end of the stream.
    mutating func readOnce() throws(ControlClient.Failure) -> [[UInt8]]? {
        if ready.isEmpty {
            var n: Int
            repeat { n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } } while n < 0 && errno == EINTR
            guard n > 0 else { return nil }
            do { ready = try framer.feed(buffer[..<n]) } catch { throw .protocolError("event too long") }
        }
        defer { ready = [] }
        return ready
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
