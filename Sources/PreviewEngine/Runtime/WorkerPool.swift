/// Long-lived threads for work that blocks (FFmpeg's reads, the PCM ring's wait for room, disk
/// writes): a job runs on an idle worker, or on a new one while fewer than `maxThreads` run; past
/// that it waits its turn, in order. Workers never end; idle, they sleep on a condition. So a seek
/// or a skip starts no thread once the pool has grown to what playback needs at once (the current
/// decoder, a neighbour's head, one winding down); with `maxThreads` 1 it is a serial queue.
public final class WorkerPool: @unchecked Sendable {   // `jobs`, `idle`, `threads`, `idleWaiters` guarded by `wake`
    private let name: String
    private let maxThreads: Int
    private let wake = Condition()
    private var jobs: [@Sendable () -> Void] = []
    /// Workers waiting for a job (woken or not yet).
    private var idle = 0
    private var threads = 0
    /// Callers of `waitUntilIdle`; workers going idle wake them.
    private var idleWaiters = 0

    /// A pool of at most `maxThreads` threads called `name`.
    public init(name: String, maxThreads: Int = .max) {
        self.name = name
        self.maxThreads = max(1, maxThreads)
    }

    /// Runs `job` on a worker: now when one is free or may be added, else after the jobs before it.
    public func run(_ job: @escaping @Sendable () -> Void) {
        wake.lock()
        jobs.append(job)
        if idle >= jobs.count {
            wake.signal()
        } else if threads < maxThreads {
            threads += 1
            startThread(named: name) { [self] in work() }
        }
        wake.unlock()
    }

    /// Returns once every job handed over before has run (the disk cache's flush, for tests).
    public func waitUntilIdle() {
        wake.lock()
        idleWaiters += 1
        while !jobs.isEmpty || idle < threads { wake.wait() }
        idleWaiters -= 1
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
            if idleWaiters > 0 { wake.broadcast() }
            wake.wait()
            idle -= 1
        }
    }
}
