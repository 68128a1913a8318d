/// The one thread that reads and writes previewd's state, lists and history, so the engine loop
/// never waits for a disk (an fsync can take a second on a busy one).
enum StateDisk {
    static let pool = WorkerPool(name: "previewd.state", maxThreads: 1)

    /// Runs `body` on the state thread and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in pool.run { continuation.resume(returning: body()) } }
    }
}
