import PreviewCore
import XCTest

/// The hold's state machine alone: every input in the states that matter, with no clock, no
/// timer and no network (the timers are actions; a test fires them by hand).
final class NetworkHoldTests: XCTestCase {
    typealias Action = NetworkHold.Action
    static let outage = NetworkTrouble(host: "cdn.example:443", service: .previews, cause: "connection refused", atUnixMs: 1_000)
    static let oneHost = NetworkTrouble(host: "cdn.example:443", service: .previews, cause: "HTTP 503", othersAnswer: true, atUnixMs: 1_000)

    func testAnOutageHoldsForEverAtMost2SecondsApartAndKeepsWhenItBegan() {
        var hold = NetworkHold()
        var later = Self.outage
        let delays = (1...8).map { n -> [Action] in
            later.atUnixMs = 1_000 + n * 2_000
            let actions = hold.currentFailed(7, n == 1 ? Self.outage : later, listening: true)
            XCTAssertEqual(hold.fired(.waiting), [.retry(item: 7)], "the timer is the only wake-up: it asks for one try")
            return actions
        }
        XCTAssertEqual(delays, [500, 1000, 1500, 1500, 1500, 1500, 1500, 1500].map { [.arm(.waiting, afterMs: $0)] },
                       "never given up, never more than 2 s apart")
        XCTAssertEqual(hold.waiting?.sinceUnixMs, 1_000, "since the first failure")
        XCTAssertEqual(hold.waiting?.failures, 8)
        XCTAssertEqual(hold.fired(.waiting), [], "a timer that was not armed asks for nothing")
    }

    func testOneHostsTroubleWhileOthersAnswerIsTriedThreeTimesThenGivenUp() {
        var hold = NetworkHold()
        XCTAssertEqual(hold.currentFailed(3, Self.oneHost, listening: true), [.arm(.waiting, afterMs: 500)])
        XCTAssertEqual(hold.currentFailed(3, Self.oneHost, listening: true), [.arm(.waiting, afterMs: 1000)])
        XCTAssertEqual(hold.currentFailed(3, Self.oneHost, listening: true), [.arm(.waiting, afterMs: 1500)])
        XCTAssertEqual(hold.currentFailed(3, Self.oneHost, listening: true), [.disarm(.waiting), .giveUp(item: 3, Self.oneHost)],
                       "the first try and \(RetrySchedule.hostRetries) more, over 3 s")
        XCTAssertNil(hold.waiting)
    }

    func testRetryAfterIsHonouredOverTheSchedule() {
        var hold = NetworkHold()
        var busy = Self.oneHost
        busy.retryAfterMs = 5_000
        XCTAssertEqual(hold.currentFailed(3, busy, listening: true), [.arm(.waiting, afterMs: 5_000)])
        XCTAssertEqual(hold.prefetchFailed(4, busy, listening: true), [.arm(.prefetch(item: 4), afterMs: 5_000)])
        busy.retryAfterMs = 86_400_000
        XCTAssertEqual(RetrySchedule.delayMs(afterFailure: 1, listenerWaits: true, retryAfterMs: busy.retryAfterMs), 600_000, "at most ten minutes")
    }

    func testNothingIsTriedWhilePausedAndAResumeTriesAtOnce() {
        var hold = NetworkHold()
        _ = hold.currentFailed(7, Self.outage, listening: true)
        XCTAssertEqual(hold.listening(false), [.disarm(.waiting)], "a pause stops the timer")
        XCTAssertEqual(hold.fired(.waiting), [], "a timer that fires late anyway tries nothing")
        XCTAssertEqual(hold.currentFailed(7, Self.outage, listening: false), [], "failing while paused arms nothing")
        XCTAssertEqual(hold.listening(true), [.retry(item: 7)], "resume tries at once")
        XCTAssertEqual(hold.listening(true), [.retry(item: 7)], "until a try is armed, each listening start tries")
    }

    func testAPrefetchBacksOffTo30SecondsParksWhilePausedAndMayStartOnlyOnceDue() {
        var hold = NetworkHold()
        let delays = (1...7).flatMap { _ in hold.prefetchFailed(4, Self.outage, listening: true) }
        XCTAssertEqual(delays, [2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000].map { .arm(.prefetch(item: 4), afterMs: $0) })
        XCTAssertFalse(hold.mayPrefetch(4, listening: true), "not before its timer")
        XCTAssertTrue(hold.mayPrefetch(5, listening: false), "an item that never failed")
        XCTAssertEqual(hold.listening(false), [.disarm(.prefetch(item: 4))])
        XCTAssertEqual(hold.listening(true), [.arm(.prefetch(item: 4), afterMs: 30_000)], "armed again where it was")
        XCTAssertEqual(hold.fired(.prefetch(item: 4)), [])
        XCTAssertTrue(hold.mayPrefetch(4, listening: true))
        XCTAssertFalse(hold.mayPrefetch(4, listening: false), "due, but nobody listens")
        XCTAssertEqual(hold.succeeded(4), [], "its prefetch has audio: forgotten")
        XCTAssertTrue(hold.backoffs.isEmpty)
    }

    func testTheWaitEndsWhenPlaybackMovesOrTheTrackHasAudioAndRetryNowTriesEverythingAtOnce() {
        var hold = NetworkHold()
        _ = hold.currentFailed(7, Self.outage, listening: true)
        XCTAssertEqual(hold.moved(to: 7), [], "still there")
        XCTAssertEqual(hold.moved(to: 8), [.disarm(.waiting)])
        XCTAssertNil(hold.waiting)

        _ = hold.currentFailed(7, Self.outage, listening: true)
        XCTAssertEqual(hold.succeeded(7), [.disarm(.waiting)], "the host answered")
        XCTAssertNil(hold.waiting)

        _ = hold.currentFailed(7, Self.outage, listening: true)
        _ = hold.prefetchFailed(8, Self.outage, listening: true)
        XCTAssertEqual(hold.retryNow(), [.disarm(.prefetch(item: 8)), .disarm(.waiting), .retry(item: 7)])
        XCTAssertTrue(hold.mayPrefetch(8, listening: true))
        XCTAssertEqual(hold.keep { $0 == 7 }, [])
        _ = hold.prefetchFailed(9, Self.outage, listening: true)
        XCTAssertEqual(hold.keep { $0 != 9 }, [.disarm(.prefetch(item: 9))], "an item removed from the queue is forgotten")
        XCTAssertEqual(hold.currentFailed(8, Self.outage, listening: true), [.arm(.waiting, afterMs: 500)],
                       "another track: its own count from the first step")
    }
}
