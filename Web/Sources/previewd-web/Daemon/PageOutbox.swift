import Synchronization

/// Where text for one page's WebSocket waits to be written: bounded, so a page that stops reading
/// (a phone gone to sleep with the socket open) is dropped instead of holding memory.
final class PageOutbox: Sendable {
    /// Messages waiting at most for one page.
    static let capacity = 512

    /// The messages, read by the WebSocket's writer; it ends when the page is dropped.
    let messages: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let overflowed = Atomic(false)
    /// Closes the page's connection: its writer may be blocked on a socket the page no longer reads.
    private let drop: @Sendable () -> Void

    /// Whether the page was dropped for falling behind.
    var fellBehind: Bool { overflowed.load(ordering: .relaxed) }

    init(drop: @escaping @Sendable () -> Void = {}) {
        self.drop = drop
        (messages, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.capacity))
    }

    /// Queues `text` for the page; when the page is that far behind, ends its stream (its WebSocket closes).
    func send(_ text: String) {
        if case .dropped = continuation.yield(text) {
            overflowed.store(true, ordering: .relaxed)
            continuation.finish()
            drop()
        }
    }

    /// Ends the stream: the writer closes the WebSocket.
    func finish() { continuation.finish() }
}
