import NIOCore
import Synchronization

/// A back-off wait that ends early when someone needs the link (a page opening, a request while
/// previewd is down), or a wait for that alone (no duration: nobody is there to be told previewd
/// is back, so nothing ticks). An event loop's timer, cancelled when woken early.
final class Waker: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Void, Never>?
        var pending = false
    }
    private let state = Mutex(State())
    private let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    /// Waits `duration` (nil: until woken), or less if `wake()` is called meanwhile (or was since
    /// the last `reset()`).
    func wait(for duration: Duration?) async {
        let timer = duration.map { duration in
            let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
            return loop.scheduleTask(in: .nanoseconds(nanoseconds)) { [weak self] in self?.wake() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.pending { state.pending = false; return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer?.cancel()
    }

    /// Ends the current wait, or the next one if none is running.
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else { state.pending = true; return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Forgets a wake that came while connected: it asked for nothing.
    func reset() { state.withLock { $0.pending = false } }
}
