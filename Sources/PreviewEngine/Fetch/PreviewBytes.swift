#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes of one preview, held in memory as they arrive, for one decoder to read.
///
/// Not a ring: the mov demuxer seeks (to a moov box after mdat, back to the first sample), and a
/// 30-second preview is about 1 MB, so the whole body is kept, up to a hard `limit`. Storage is allocated
/// once when Content-Length is known (else it doubles, never past `limit`). Reads block until the bytes
/// they ask for arrive, the download ends, fails, or the buffer is cancelled.
public final class PreviewBytes: @unchecked Sendable {   // raw storage and state guarded by `condition`
    /// What a read found.
    public enum ReadOutcome: Equatable {
        /// This many bytes were copied (at least 1).
        case bytes(Int)
        /// The offset is at or past the end of the complete body.
        case end
        /// The download failed, or the buffer was cancelled.
        case failed(FetchError)
    }

    /// The most bytes this buffer will ever hold.
    public let limit: Int

    private let condition = Condition()
    private var storage: UnsafeMutableRawBufferPointer   // protected by condition
    private var count = 0                                // protected by condition
    private var expectedLength: Int?                     // protected by condition
    private var complete = false                         // protected by condition
    private var failure: FetchError?                     // protected by condition
    private var endObservers: [@Sendable (Bool) -> Void] = []    // protected by condition
    /// A head's range has arrived and the rest is not asked for: a read past it fails (`pastHead`)
    /// instead of waiting, so a head's decoder never waits for bytes nobody fetches.
    private var held = false                             // protected by condition
    private var holdObservers: [@Sendable () -> Void] = []       // protected by condition
    /// Waiters for the bytes at an offset (`onArrival`), by token.
    private var arrivalObservers: [Int: (offset: Int, body: @Sendable () -> Void)] = [:]   // protected by condition
    private var nextArrivalToken = 0                     // protected by condition

    /// An empty buffer that refuses to grow past `limit` bytes.
    public init(limit: Int = 16 << 20, initialCapacity: Int = 256 << 10) {
        self.limit = limit
        storage = .allocate(byteCount: max(1, min(initialCapacity, limit)), alignment: 16)
    }

    deinit { storage.deallocate() }

    // MARK: Producer (the download)

    /// Records the length the server announced; allocates it at once unless `reserve` is false (a
    /// head: only its first bytes come for now). Fails the buffer if over `limit`.
    public func expect(length: Int?, reserve: Bool = true) {
        defer { notifyObservers() }
        condition.lock(); defer { condition.unlock() }
        guard let length, length >= 0 else { return }
        guard length <= limit else { failLocked(.tooLarge(limit: limit)); return }
        expectedLength = length
        if reserve { reserveLocked(length) }
    }

    /// Appends bytes from the network. Returns false (and fails the buffer) past `limit`, or when the
    /// buffer was already failed or cancelled: the download should stop.
    @discardableResult
    public func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        defer { notifyObservers() }
        condition.lock(); defer { condition.unlock() }
        guard failure == nil, !complete else { return false }
        guard count + piece.count <= limit else { failLocked(.tooLarge(limit: limit)); return false }
        guard let source = piece.baseAddress, !piece.isEmpty else { return true }
        reserveLocked(count + piece.count)
        (storage.baseAddress! + count).copyMemory(from: source, byteCount: piece.count)
        count += piece.count
        condition.broadcast()
        return true
    }

    /// Appends `data` (a body read from the disk cache, or a test's); see `append(_:)` above.
    @discardableResult
    public func append(_ data: Data) -> Bool {
        data.withUnsafeBytes { append($0) }
    }

    /// Marks the body complete; fails it as truncated when fewer bytes came than announced.
    public func finish() {
        defer { notifyObservers() }
        condition.lock(); defer { condition.unlock() }
        guard failure == nil else { return }
        if let expected = expectedLength, count < expected {
            failLocked(.truncated(received: count, expected: expected))
            return
        }
        complete = true
        held = false
        holdObservers = []
        condition.broadcast()
    }

    /// The head's range has arrived and the download pauses there: tells the hold observers once.
    public func hold() {
        condition.lock()
        guard failure == nil, !complete, !held else { condition.unlock(); return }
        held = true
        condition.broadcast()
        let observers = holdObservers
        holdObservers = []
        condition.unlock()
        observers.forEach { $0() }
    }

    /// The download goes on past the head: reads wait for the rest again.
    public func widen() {
        condition.lock(); defer { condition.unlock() }
        held = false
    }

    /// Calls `body` once, when a head's range has arrived (`hold`), outside any lock; never when
    /// the body ends or fails first.
    public func onHold(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        guard held else {
            if failure == nil, !complete { holdObservers.append(body) }
            condition.unlock()
            return
        }
        condition.unlock()
        body()
    }

    /// Calls `body` once the whole preview is in (at once if it already is), outside any lock.
    public func onComplete(_ body: @escaping @Sendable () -> Void) {
        onEnd { complete in if complete { body() } }
    }

    /// Calls `body` once the body ends, with true when complete and false when it failed or was
    /// cancelled (at once if it has ended), outside any lock.
    public func onEnd(_ body: @escaping @Sendable (Bool) -> Void) {
        condition.lock()
        guard complete || failure != nil else {
            endObservers.append(body)
            condition.unlock()
            return
        }
        let ended = complete
        condition.unlock()
        body(ended)
    }

    /// Tells the arrival waiters whose bytes came, and the end observers once the body has ended;
    /// outside the lock, as they may read the bytes.
    private func notifyObservers() {
        condition.lock()
        let ready = arrivalObservers.filter { answerableLocked(at: $0.value.offset) }
        ready.keys.forEach { arrivalObservers.removeValue(forKey: $0) }
        let (ended, wasComplete) = (complete || failure != nil, complete)
        let observers = ended ? endObservers : []
        if ended { endObservers = [] }
        condition.unlock()
        ready.values.forEach { $0.body() }
        observers.forEach { $0(wasComplete) }
    }

    // MARK: Waiting for bytes without a thread (previewd-web's audio path)

    /// True when the bytes at `offset` can be answered with the body's total size: some have arrived
    /// and the length is known (or `offset` is at or past it), or the body has ended.
    private func answerableLocked(at offset: Int) -> Bool {
        if complete || failure != nil { return true }
        guard let expectedLength else { return false }   // no total yet: wait for the whole (or the length)
        return offset < count || offset >= expectedLength
    }

    /// Calls `body` once, outside any lock, when the bytes at `offset` can be answered (see
    /// `answerable(at:)`); at once (returning nil) if they can now. Else returns a token for
    /// `cancelArrival`.
    public func onArrival(at offset: Int, _ body: @escaping @Sendable () -> Void) -> Int? {
        condition.lock()
        guard !answerableLocked(at: offset) else { condition.unlock(); body(); return nil }
        nextArrivalToken += 1
        arrivalObservers[nextArrivalToken] = (offset, body)
        condition.unlock()
        return nextArrivalToken
    }

    /// Forgets the arrival waiter `token` and calls its body now, if it was still waiting.
    public func cancelArrival(_ token: Int) {
        condition.lock()
        let body = arrivalObservers.removeValue(forKey: token)?.body
        condition.unlock()
        body?()
    }

    /// Waits, with no thread blocked, until the bytes at `offset` can be answered: some have
    /// arrived and the total length is known, or the body has ended (complete, failed, cancelled).
    /// Bounded by the download (its deadline fails it); the task's cancellation ends the wait.
    public func arrival(at offset: Int) async {
        let wait = Locked<(token: Int?, cancelled: Bool)>((nil, false))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (arrived: CheckedContinuation<Void, Never>) in
                let token = onArrival(at: offset) { arrived.resume() }
                // Cancelled while the waiter was being set up: end it now.
                if let token, wait.withLock({ $0.token = token; return $0.cancelled }) { cancelArrival(token) }
            }
        } onCancel: {
            if let token = wait.withLock({ $0.cancelled = true; return $0.token }) { cancelArrival(token) }
        }
    }

    /// True when the bytes at `offset` can be answered now (see `arrival(at:)`).
    public func answerable(at offset: Int) -> Bool {
        condition.lock(); defer { condition.unlock() }
        return answerableLocked(at: offset)
    }

    /// A copy of every byte received so far (the disk cache stores complete previews with it).
    public func snapshot() -> Data {
        condition.lock(); defer { condition.unlock() }
        return Data(bytes: storage.baseAddress!, count: count)
    }

    /// Fails the buffer: pending and later reads return `error`.
    public func fail(_ error: FetchError) {
        defer { notifyObservers() }
        condition.lock(); defer { condition.unlock() }
        failLocked(error)
    }

    /// Cancels the buffer: reads blocked now or later return `.cancelled` at once. A complete
    /// buffer stays readable: its bytes are all there.
    public func cancel() {
        defer { notifyObservers() }
        condition.lock(); defer { condition.unlock() }
        guard !complete else { return }
        failLocked(.cancelled)
    }

    // MARK: Consumer (the decoder's AVIO bridge)

    /// Copies up to `maxLength` bytes from `offset` into `destination`, waiting for them to arrive.
    /// A raised `cancellation` ends the wait of this reader only (the download goes on for others).
    public func read(into destination: UnsafeMutableRawPointer, at offset: Int, maxLength: Int,
                     cancellation: CancellationFlag? = nil) -> ReadOutcome {
        condition.lock(); defer { condition.unlock() }
        while true {
            if let failure { return .failed(failure) }
            if cancellation?.isCancelled == true { return .failed(.cancelled) }
            if offset < count {
                let n = min(maxLength, count - offset)
                destination.copyMemory(from: storage.baseAddress! + offset, byteCount: n)
                return .bytes(n)
            }
            if complete { return .end }
            if held { return .failed(.pastHead) }
            // Woken by append, finish, fail, cancel, or `wakeReaders` (which a reader's canceller
            // calls after raising its flag, so the flag is seen under this lock): no timeout.
            condition.wait()
        }
    }

    /// Wakes every waiting reader so each can look at its cancellation flag.
    public func wakeReaders() {
        condition.lock(); defer { condition.unlock() }
        condition.broadcast()
    }

    /// The body's total length when known: announced by the server, or counted once complete.
    public var knownLength: Int? {
        condition.lock(); defer { condition.unlock() }
        return complete ? count : expectedLength
    }

    /// Bytes received so far.
    public var receivedCount: Int {
        condition.lock(); defer { condition.unlock() }
        return count
    }

    /// True once the whole body is in.
    public var isComplete: Bool {
        condition.lock(); defer { condition.unlock() }
        return complete
    }

    /// The failure, if the download failed or was cancelled.
    public var error: FetchError? {
        condition.lock(); defer { condition.unlock() }
        return failure
    }

    // MARK: Private

    private func failLocked(_ error: FetchError) {
        guard failure == nil else { return }
        failure = error
        holdObservers = []
        condition.broadcast()
    }

    private func reserveLocked(_ needed: Int) {
        guard needed > storage.count else { return }
        var capacity = storage.count
        while capacity < needed { capacity *= 2 }
        capacity = min(max(capacity, needed), limit)
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        grown.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: count)
        storage.deallocate()
        storage = grown
    }
}
