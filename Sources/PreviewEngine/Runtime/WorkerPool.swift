/// Long-lived threads for work that blocks in C (FFmpeg's reads, the PCM ring's wait for room): a
/// job runs on an idle worker, or on a new one when all are busy. Workers never end; idle, they
/// sleep on a condition. So a seek or a skip starts no thread once the pool has grown to what
/// playback needs at once (the current decoder, a neighbour's head, one winding down).
public final class WorkerPool: @unchecked Sendable {   // `jobs`, `idle` and `threads` guarded by `wake`
    private let name: String
    private let wake = Condition()
    private var jobs: [@Sendable () -> Void] = []
    /// Workers waiting for a job (woken or not yet).
    private var idle = 0
    private var threads = 0

    /// A pool whose threads are called `name`.
    public init(name: String) { self.name = name }

    /// Runs `job` on a worker of its own, now.
    public func run(_ job: @escaping @Sendable () -> Void) {
        wake.lock()
        jobs.append(job)
        if idle >= jobs.count {
            wake.signal()
        } else {
            threads += 1
            startThread(named: name) { [self] in work() }
        }
        wake.unlock()
    }

    /// Threads the pool has started, and how many of them wait for a job.
    public var counts: (threads: Int, idle: Int) {
        wake.lock(); defer { wake.unlock() }
        return (threads, idle)
    }

    private func work() {
        wake.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                wake.unlock()
                job()
                wake.lock()
                continue
            }
            idle += 1
            wake.wait()
            idle -= 1
        }
    }
}
