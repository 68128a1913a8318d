/// A thread that runs closures one after another, in order, and sleeps on a condition in between
/// (a serial queue without the runtime's thread pool and its once-a-second monitor). Started on
/// first use; lives as long as the process.
public final class SerialWorker: @unchecked Sendable {   // `work`, `running`, `started` guarded by `wake`
    private let name: String
    private let wake = Condition()
    private var work: [@Sendable () -> Void] = []
    private var running = false
    private var started = false

    /// A worker whose thread is called `name`.
    public init(name: String) { self.name = name }

    /// Runs `body` on the worker after what was handed to it before.
    public func async(_ body: @escaping @Sendable () -> Void) {
        wake.lock()
        work.append(body)
        if !started {
            started = true
            startThread(named: name) { [self] in run() }
        }
        wake.signal()
        wake.unlock()
    }

    /// Returns once everything handed over before has run.
    public func sync() {
        wake.lock()
        while !work.isEmpty || running { wake.wait() }   // woken by `run` once it is empty
        wake.unlock()
    }

    private func run() {
        wake.lock()
        while true {
            while work.isEmpty {
                wake.broadcast()   // for `sync`
                wake.wait()
            }
            let next = work.removeFirst()
            running = true
            wake.unlock()
            next()
            wake.lock()
            running = false
        }
    }
}
