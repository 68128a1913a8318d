import Glibc
import PreviewCore

/// One connection to the HTTP stream: first its request head (bounded in size and time), then the
/// answer and the stream, from a bounded queue of its own. A listener that falls a whole queue
/// behind is dropped; nobody waits for it. With ICY metadata, a block follows every
/// `IcyMetadata.interval` bytes of audio.
final class StreamClient {
    let fd: Int32
    /// When the request head must be in (CLOCK_MONOTONIC ns); nil once it is.
    var headDeadline: UInt64?
    /// The head's bytes so far.
    var headBytes: [UInt8] = []
    /// Serving: the answer was queued, audio follows.
    var serving = false
    /// Close once the queue is written (an error answer, a HEAD).
    var closeWhenWritten = false
    /// Audio bytes until the next metadata block; 0: no metadata.
    private var untilMetadata = 0
    /// The title version last sent.
    var titleVersion = -1
    /// A metadata block being written, and how much of it is.
    private var metadata: [UInt8] = []
    private var metadataSent = 0
    /// Queued bytes: `queue[start..<end]`, the answer's head first.
    private let queue: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    /// A connection with a queue of `capacity` bytes.
    init(fd: Int32, capacity: Int, headDeadline: UInt64) {
        self.fd = fd
        self.headDeadline = headDeadline
        queue = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        queue.deallocate()
        Glibc.close(fd)
    }

    /// True while bytes wait to be written.
    var hasPending: Bool { start < end || metadataSent < metadata.count || answerSent < answer.count }

    /// Starts metadata every `interval` bytes from now.
    func startMetadata(every interval: Int) { untilMetadata = interval }

    /// True when this listener gets metadata.
    var wantsMetadata: Bool { untilMetadata > 0 }

    /// Queues `bytes`; false when they do not fit (the listener is too far behind).
    func enqueue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if end + bytes.count > queue.count, start > 0 {
            queue.baseAddress!.copyMemory(from: queue.baseAddress! + start, byteCount: end - start)
            end -= start
            start = 0
        }
        guard end + bytes.count <= queue.count else { return false }
        (queue.baseAddress! + end).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        end += bytes.count
        return true
    }

    /// Writes what the socket takes now: the answer's head, then audio with a metadata block every
    /// `IcyMetadata.interval` bytes of it (`block` gives the one due: the title's, or
    /// `IcyMetadata.unchanged`). False when the connection failed.
    func flush(metadataBlock block: (StreamClient) -> [UInt8]) -> Bool {
        while true {
            if answerSent < answer.count {
                guard let n = send(answer, from: answerSent) else { return false }
                answerSent += n
                if answerSent < answer.count { return true }
            }
            if metadataSent < metadata.count {
                guard let n = send(metadata, from: metadataSent) else { return false }
                metadataSent += n
                if metadataSent < metadata.count { return true }
            }
            guard start < end else { return true }
            let count = untilMetadata > 0 ? min(end - start, untilMetadata) : end - start
            let n = Glibc.send(fd, queue.baseAddress! + start, count, Int32(MSG_NOSIGNAL))
            if n < 0 { return errno == EAGAIN || errno == EINTR }
            start += n
            if start == end { start = 0; end = 0 }
            if untilMetadata > 0 {
                untilMetadata -= n
                if untilMetadata == 0 {
                    untilMetadata = IcyMetadata.interval
                    metadata = block(self)
                    metadataSent = 0
                }
            }
            if n < count { return true }
        }
    }

    /// The answer's head (or a whole error answer), written before any audio.
    private var answer: [UInt8] = []
    private var answerSent = 0

    /// Sets the answer to write first.
    func answer(_ text: String) {
        answer = Array(text.utf8)
        answerSent = 0
    }

    private func send(_ bytes: [UInt8], from offset: Int) -> Int? {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        if n < 0 { return errno == EAGAIN || errno == EINTR ? 0 : nil }
        return n
    }
}
