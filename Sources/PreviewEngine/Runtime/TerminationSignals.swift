import CPreviewLinux
import Glibc

/// SIGTERM and SIGINT as readable events of the engine loop (a signalfd) instead of a handler:
/// shutdown then runs on the loop like everything else. Make it first thing in `main`, before any
/// thread starts, so every thread inherits the blocked mask.
public final class TerminationSignals: Sendable {
    private let fd: Int32

    /// Blocks the signals in this thread and those it starts; nil when the kernel refuses.
    public init?() {
        fd = cpl_termination_signalfd()
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    /// Calls `handler` on `loop`'s thread with the name of each termination signal that arrives.
    /// Call on the loop's thread, or before it runs.
    public func watch(on loop: EngineLoop, _ handler: @escaping (String) -> Void) {
        loop.watch(fd, events: Int16(POLLIN)) { [fd] _ in
            while case let number = cpl_read_signal(fd), number != 0 {
                handler(number == SIGINT ? "SIGINT" : "SIGTERM")
            }
        }
    }
}
