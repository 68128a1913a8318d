import Glibc
import PreviewCore

/// One client of the control socket, as the server's event loop sees it: the bytes of a line not
/// yet finished, the requests read and not yet answered (answered one at a time, in order), and the
/// bytes not yet written. Lives on the engine loop's thread.
final class ControlConnection {
    let fd: Int32
    /// Tells this connection from a later one given the same descriptor number.
    let serial: UInt64
    var framer = LineFramer()
    /// Complete request lines waiting for the one before them to be answered.
    var lines: [[UInt8]] = []
    /// Bytes to send; `sent` of them are gone.
    var output: [UInt8] = []
    var sent = 0
    /// A request of this client is with the player.
    var answering = false
    /// Set once the connection became an event stream.
    var subscription: Subscription?
    /// When it last sent something (monotonic nanoseconds).
    var lastHeard: UInt64
    /// The stall or idle timeout running for it.
    var timer: EngineLoop.TimerID?
    /// Close once `output` is written (an error that ends the connection, or shutdown).
    var closeWhenFlushed = false
    var closed = false

    /// What an event stream asked for.
    struct Subscription {
        /// Position ticks every second while playing.
        var position: Bool
    }

    init(fd: Int32, serial: UInt64) {
        self.fd = fd
        self.serial = serial
        lastHeard = MonotonicClock.nanoseconds()
    }

    /// Bytes queued and not yet sent.
    var backlog: Int { output.count - sent }

    /// Not answering and not subscribed: may be disconnected to make room.
    var isIdle: Bool { !answering && subscription == nil }

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
        return true
    }
}
