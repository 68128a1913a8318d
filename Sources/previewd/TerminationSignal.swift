import Dispatch
import Glibc

/// Waits for SIGTERM or SIGINT, delivered through dispatch sources rather than a signal handler.
enum TerminationSignal {
    /// Returns the name of the first termination signal received.
    static func wait() async -> String {
        await withCheckedContinuation { continuation in
            let queue = DispatchQueue(label: "previewd.signals")
            // The sources' handlers run on `queue`, and so does the setup: a signal that arrives
            // while the sources are being made waits for it (no race on `sources` or `resumed`).
            queue.sync {
                var sources: [DispatchSourceSignal] = []
                var resumed = false
                for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler {
                        guard !resumed else { return }
                        resumed = true
                        sources.forEach { $0.cancel() }
                        continuation.resume(returning: name)
                    }
                    source.resume()
                    sources.append(source)
                }
            }
        }
    }
}
