import CWebShim
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// The entry point: before anything runs, NIO's event loop becomes Swift Concurrency's global
/// executor (jobs now, after a delay, at a deadline), so previewd-web starts no libdispatch worker
/// pool, whose monitor would wake it every second, and sleeps in one epoll_wait while nobody uses it.
/// (NIO's own `unsafeTryInstall…GlobalExecutor` finds the hook with dlsym, which a statically linked
/// runtime hides; and it leaves the delayed jobs to libdispatch.)
@main
enum Main {
    static func main() async {
        NIOSingletons.groupLoopCountSuggestion = 1
        _ = ConcurrencyOnNIO.serial  // made before any job needs it
        cws_install(ConcurrencyOnNIO.now, ConcurrencyOnNIO.later, ConcurrencyOnNIO.at)
        await PreviewdWeb.main()
    }
}

/// Where Swift Concurrency's jobs run: the one event loop.
enum ConcurrencyOnNIO {
    static let loop = MultiThreadedEventLoopGroup.singleton.next()
    /// The loop as the executor jobs run on (as NIO's own takeover runs them).
    static let serial = loop.executor.asUnownedSerialExecutor()

    // The hooks, defined here so they carry no actor isolation (a closure written in `main` would be
    // the main actor's, and checked to be on it whenever a job is enqueued).
    static let now: cws_enqueue = { job, _ in run(job) }
    static let later: cws_enqueue_delay = { delay, job, _ in schedule(job, in: Int64(clamping: delay)) }
    static let at: cws_enqueue_deadline = { sec, nsec, _, _, clock, job, _ in
        schedule(job, in: nanoseconds(untilSeconds: sec, nanoseconds: nsec, clock: clock))
    }

    static func run(_ job: UnsafeMutableRawPointer?) {
        let unowned = unsafeBitCast(job, to: UnownedJob.self)
        let serial = serial
        loop.execute { unowned.runSynchronously(on: serial) }
    }

    static func schedule(_ job: UnsafeMutableRawPointer?, in nanoseconds: Int64) {
        let unowned = unsafeBitCast(job, to: UnownedJob.self)
        let serial = serial
        loop.scheduleTask(in: .nanoseconds(max(0, nanoseconds))) { unowned.runSynchronously(on: serial) }
    }

    /// Nanoseconds from now to a deadline on the runtime's clock (1: continuous, 2: suspending).
    static func nanoseconds(untilSeconds sec: Int64, nanoseconds nsec: Int64, clock: Int32) -> Int64 {
        var now = timespec()
        clock_gettime(clock == 1 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now)
        return (sec - Int64(now.tv_sec)) * 1_000_000_000 + (nsec - Int64(now.tv_nsec))
    }
}
