import Glibc
import PreviewCore

/// One client of a `LineServer`, as its protocol sees it: answer the lines handed over, push what the
/// client did not ask for (events), mark it waiting, close it. The server keeps the rest: the bytes
/// of a line not yet finished, the lines read ahead, the bytes not yet written, the timers. Lives
/// on the engine loop's thread: a task that answers later runs there too.
public final class LineConnection: @unchecked Sendable {   // confined to the engine loop's thread
    /// Tells this connection from every other of its server, before and after.
    public let serial: UInt64
    /// The socket it came through (Unix or TCP, loopback or not: the protocol's policy may differ).
    public let listener: Listener
    /// What the protocol keeps for this client.
    public var context: AnyObject?
    /// The client waits for output it did not ask for (subscribed to events, MPD's `idle`): it is
    /// then never disconnected for being idle, nor to make room for another (and, delivering
    /// `inOrderUnlessWaiting`, its next line is handed over at once).
    public var isWaiting = false {
        didSet { if isWaiting != oldValue { server.dispatch(self) } }
    }
    /// False once the connection is closed (or closing): answers and pushes are then dropped.
    public var isOpen: Bool { !closed && !closing }

    let fd: Int32
    let server: LineServer
    var framer: LineFramer
    /// Complete lines waiting to be handed to the protocol.
    var lines: [[UInt8]] = []
    /// Lines handed to the protocol and not yet answered.
    var awaiting = 0
    /// Handing lines over right now (an answer given at once must not recurse).
    var dispatching = false
    /// Bytes to send; `sent` of them are gone; those before `answered` end with an answer.
    var output: [UInt8] = []
    var sent = 0
    var answered = 0
    /// When it last sent something (monotonic nanoseconds).
    var lastHeard: UInt64
    /// The stall or idle timeout running for it.
    var timer: EngineLoop.TimerID?
    /// Closes once its output is written and no answer is awaited (an error that ends it, or shutdown).
    var closing = false
    var closed = false

    init(fd: Int32, serial: UInt64, listener: Listener, server: LineServer, maxLineLength: Int) {
        self.fd = fd
        self.serial = serial
        self.listener = listener
        self.server = server
        framer = LineFramer(maxLineLength: maxLineLength)
        lastHeard = MonotonicClock.nanoseconds()
    }

    /// Writes `bytes` (which may be empty: a line that needs no answer) as the answer to the oldest
    /// line handed over and not yet answered, then hands over the next. Dropped when the client left.
    public func answer(_ bytes: [UInt8]) {
        server.answered(self, bytes)
    }

    /// Writes `bytes` the client did not ask for (an event). A client that lets more than
    /// `LineRules.maxPushBacklog` of them wait unread is cut off: nothing is buffered without limit.
    public func push(_ bytes: [UInt8]) {
        server.push(bytes, to: self)
    }

    /// Closes the connection once what was written is sent and the answers awaited are given.
    public func close() {
        server.closeWhenDone(self)
    }

    /// Bytes queued and not yet sent.
    var backlog: Int { output.count - sent }

    /// Bytes queued after the last answer and not yet sent: what pushes left waiting.
    var pushBacklog: Int { output.count - max(sent, answered) }

    /// Neither waiting for an answer nor for events: may be disconnected to make room.
    var isIdle: Bool { awaiting == 0 && lines.isEmpty && !isWaiting && !closing }

    /// Sends what it can without blocking. False when the peer is gone.
    func flush() -> Bool {
        while sent < output.count {
            let n = output[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            sent += n
        }
        output.removeAll(keepingCapacity: output.count <= 64 << 10)
        sent = 0
        answered = 0
        return true
    }
}
