import CPreviewLinux
import Glibc

/// Starts `body` on a new detached thread called `name` (top and /proc/PID/task/*/comm show its
/// first 15 bytes; a thread would otherwise carry its creator's name).
/// FoundationEssentials has no Thread.
public func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
        let work = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
        cpl_set_thread_name(work.name)
        work.body()
        return nil
    }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    pthread_detach(thread)
}

private final class ThreadBody {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
}
