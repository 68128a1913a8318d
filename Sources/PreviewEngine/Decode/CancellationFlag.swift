import Synchronization

/// A one-way flag raised to stop work on another thread: checked by FFmpeg's interrupt callback,
/// by the decoder loop and by a producer waiting for room in a PCM buffer.
public final class CancellationFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    /// A lowered flag.
    public init() {}

    /// Raises the flag; it stays raised.
    public func cancel() { raised.store(true, ordering: .releasing) }

    /// True once `cancel()` was called.
    public var isCancelled: Bool { raised.load(ordering: .acquiring) }
}
