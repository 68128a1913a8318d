import Foundation
@testable import PreviewEngine
import PreviewTestSupport
import Synchronization
import XCTest

/// The engine loop (executor, timers, hand-over from other threads) and the decoders' worker pool.
final class RuntimeTests: XCTestCase {
    func testTheLoopRunsHandedWorkTimersInDeadlineOrderAndTasksThatPreferIt() {
        let loop = EngineLoop()
        let ended = DispatchSemaphore(value: 0)
        startThread(named: "test.loop") { loop.run(); ended.signal() }
        let seen = Mutex<[String]>([])
        let onLoop = Mutex<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.after(0.05) { seen.withLock { $0.append("late") }; done.signal() }
            loop.after(0.01) { seen.withLock { $0.append("early") } }
            let cancelled = loop.after(0.02) { seen.withLock { $0.append("cancelled") } }
            loop.cancel(cancelled)
        }
        Task(executorPreference: loop) {
            onLoop.withLock { $0.append(loop.inLoop) }
            await Task.yield()
            onLoop.withLock { $0.append(loop.inLoop) }
        }
        XCTAssertEqual(done.wait(timeout: .now() + Patience.seconds(5)), .success)
        XCTAssertEqual(seen.withLock { $0 }, ["early", "late"])
        XCTAssertEqual(onLoop.withLock { $0 }, [true, true], "a task that prefers the loop runs on its thread")
        XCTAssertFalse(loop.inLoop)
        loop.stop()
        XCTAssertEqual(ended.wait(timeout: .now() + Patience.seconds(5)), .success, "stop ends run")
    }

    func testThePoolRunsJobsAtOnceAndReusesItsThreads() {
        let pool = WorkerPool(name: "test.pool")
        let release = DispatchSemaphore(value: 0)
        let running = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            pool.run { running.signal(); release.wait() }
        }
        for _ in 0..<3 { XCTAssertEqual(running.wait(timeout: .now() + Patience.seconds(5)), .success, "three blocking jobs run at once") }
        XCTAssertEqual(pool.counts.threads, 3)
        for _ in 0..<3 { release.signal() }
        XCTAssertTrue(eventually(timeout: 5, interval: 0.001) { pool.counts.idle == 3 }, "the workers go back to waiting")
        for _ in 0..<10 {   // one after another: the idle workers take them, no thread is added
            let finished = DispatchSemaphore(value: 0)
            pool.run { finished.signal() }
            XCTAssertEqual(finished.wait(timeout: .now() + Patience.seconds(5)), .success)
        }
        XCTAssertEqual(pool.counts.threads, 3)
    }

    func testAOneThreadPoolRunsJobsInOrderAndWaitUntilIdleWaitsForThem() {
        let pool = WorkerPool(name: "test.serial", maxThreads: 1)
        let order = Mutex<[Int]>([])
        for i in 0..<20 { pool.run { usleep(200); order.withLock { $0.append(i) } } }   // The property: jobs that take a while queue up.
        pool.waitUntilIdle()
        XCTAssertEqual(order.withLock { $0 }, Array(0..<20))
        XCTAssertEqual(pool.counts.threads, 1)
    }
}
