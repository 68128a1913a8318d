import PreviewCore
import XCTest

/// The player core waiting for the network: a transient failure holds playback at its track with
/// no mark, the hold's timer tries again, the track plays when the host answers; one host's trouble
/// while others answer is given up after its tries; asking again always tries again. No clock:
/// timers are effects, fired by hand.
final class PlayerCoreHoldTests: XCTestCase {
    typealias Effect = PlayerCore.Effect
    static let tracks = (0..<5).map { Track(trackId: $0, trackName: "Tone \($0 + 1)", previewUrl: url($0)) }
    static func url(_ i: Int) -> String { "https://example.com/\(i).m4a" }
    static let outage = NetworkTrouble(host: "example.com:443", service: .previews, cause: "connection refused", atUnixMs: 5_000)
    static let oneHost = NetworkTrouble(host: "example.com:443", service: .previews, cause: "HTTP 503", othersAnswer: true, atUnixMs: 5_000)

    static func timers(_ effects: [Effect]) -> [Effect] {
        effects.filter { if case .armRetry = $0 { true } else if case .disarmRetry = $0 { true } else { false } }
    }
    static func starts(_ effects: [Effect]) -> [Int] {
        effects.compactMap { if case .startSlot(let slot, nil) = $0 { slot.item } else { nil } }
    }
    static func waits(_ effects: [Effect]) -> [NetworkWaitReport?] {
        effects.compactMap { if case .notify(.waiting(let report)) = $0 { report } else { nil } }
    }

    /// A core playing track 0 (item 1), its download complete, its neighbour (item 2) prefetched.
    private func playing() -> PlayerCore {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 0, depthMs: 250))
        _ = core.replaceQueue(with: Self.tracks, play: true)
        _ = core.handle(.ready(core.current!.id, containerMs: 8_000))
        _ = core.handle(.downloadEnded(url: Self.url(0), complete: true))
        XCTAssertNotNil(core.prefetched[2])
        return core
    }

    /// The core after the outage reached item 2 (its prefetch failed, then track 0 ended).
    private func holding() -> (PlayerCore, [Effect]) {
        var core = playing()
        let neighbour = core.prefetched[2]!.id
        let backoff = core.handle(.unreachable(neighbour, Self.outage))
        XCTAssertEqual(Self.timers(backoff), [.armRetry(.prefetch(item: 2), afterMs: 2_000)], "a prefetch nobody waits on backs off")
        XCTAssertTrue(backoff.contains(.cancelSlot(neighbour)))
        XCTAssertNil(core.queue[id: 2]?.failure, "not marked")
        _ = core.handle(.downloadEnded(url: Self.url(1), complete: false))
        let ended = core.handle(.drained(core.current!.id))
        XCTAssertEqual(Self.starts(ended), [2], "the track the outage reached is tried at once when it comes")
        XCTAssertTrue(Self.timers(ended).contains(.disarmRetry(.prefetch(item: 2))))
        let failed = core.handle(.unreachable(core.current!.id, Self.outage))
        return (core, failed)
    }

    func testAnOutageHoldsAtTheTrackItReachedAndPlaysItWhenTheHostAnswers() {
        var (core, failed) = holding()
        XCTAssertEqual(core.transport.state, .loading(item: 2, autoplay: true), "held, not skipped")
        XCTAssertEqual(core.queue.items.filter { $0.failure != nil }.count, 0, "nothing marked failed")
        XCTAssertEqual(Self.timers(failed), [.armRetry(.waiting, afterMs: 500)])
        XCTAssertTrue(Self.starts(failed).isEmpty, "no neighbour tried while the network is away")
        let report = Self.waits(failed).first!!
        XCTAssertEqual(report.index, 1)
        XCTAssertEqual(report.sinceUnixMs, 5_000)
        XCTAssertTrue(report.outage)
        XCTAssertEqual(report.message, "waiting for the network: the preview server (example.com:443) does not answer (connection refused)")
        XCTAssertEqual(core.lastError, report.message, "MPD's error: line and status.error")
        XCTAssertEqual(NetworkWaitReport(core.hold.waiting!, index: 1, waitedMs: 12_400).line,
                       "waiting for the network: the preview server (example.com:443) does not answer since 0:12 (connection refused)")

        for delay in [1_000, 1_500, 1_500] {
            let retry = core.handle(.retryDue(.waiting))
            XCTAssertEqual(Self.starts(retry), [2], "the timer tries again")
            XCTAssertTrue(retry.contains(.startDownload(url: Self.url(1), trackId: 1)), "the download anew")
            XCTAssertTrue(Self.waits(retry).isEmpty, "still the same wait: no new event")
            let again = core.handle(.unreachable(core.current!.id, Self.outage))
            XCTAssertEqual(Self.timers(again), [.armRetry(.waiting, afterMs: delay)])
        }
        _ = core.handle(.retryDue(.waiting))
        let back = core.handle(.ready(core.current!.id, containerMs: 8_000))
        XCTAssertTrue(back.contains(.play(core.current!.id, paused: false, title: "Tone 2", artist: nil)), "plays as soon as it answers")
        XCTAssertEqual(Self.waits(back), [nil], "the wait is over")
        XCTAssertNil(core.lastError)
        XCTAssertNil(core.hold.waiting)
        XCTAssertEqual(core.queue.count, 5, "the queue is whole")
    }

    func testPausedNothingIsTriedAndResumeTriesAtOnce() throws {
        var (core, _) = holding()
        let paused = try core.apply(.pause)
        XCTAssertEqual(Self.timers(paused), [.disarmRetry(.waiting)])
        XCTAssertEqual(core.handle(.retryDue(.waiting)).filter { if case .startSlot = $0 { true } else { false } }, [],
                       "a late timer tries nothing")
        let resumed = try core.apply(.resume)
        XCTAssertEqual(Self.starts(resumed), [2], "resume tries at once")
        XCTAssertEqual(Self.timers(resumed), [])
        let stopped = try core.apply(.stop)
        XCTAssertEqual(Self.waits(stopped), [nil], "a stop ends the wait")
        XCTAssertNil(core.hold.waiting)
    }

    func testOneHostFailingWhileOthersAnswerIsGivenUpAfterItsTriesAndTheNextTrackPlays() {
        var core = playing()
        _ = core.handle(.drained(core.current!.id))   // item 2 plays from its prefetch
        XCTAssertEqual(core.transport.item, 2)
        var effects = core.handle(.ready(core.current!.id, containerMs: 8_000))
        _ = core.handle(.downloadEnded(url: Self.url(1), complete: true))
        effects = core.handle(.unreachable(core.prefetched[3]!.id, Self.oneHost))
        _ = core.handle(.drained(core.current!.id))
        XCTAssertEqual(core.transport.item, 3)
        for _ in 0..<RetrySchedule.hostRetries {
            effects = core.handle(.unreachable(core.current!.id, Self.oneHost))
            XCTAssertNil(core.queue[id: 3]?.failure)
            _ = core.handle(.retryDue(.waiting))
        }
        effects = core.handle(.unreachable(core.current!.id, Self.oneHost))
        XCTAssertEqual(core.queue[id: 3]?.failure, "failed for now: the preview server (example.com:443) answers HTTP 503")
        XCTAssertEqual(core.transport.item, 4, "the next good track")
        XCTAssertTrue(effects.contains(.notify(.error("track 3 (Tone 3): failed for now: the preview server (example.com:443) answers HTTP 503"))),
                      "numbered from 1 and named")
    }

    func testAskingForAFailedTrackAgainTriesItAndRetryEndsTheWaitWithATryNow() throws {
        var core = playing()
        _ = core.handle(.failed(core.prefetched[2]!.id, "preview server answered HTTP 404", afterMs: 0))
        XCTAssertNotNil(core.queue[id: 2]?.failure)
        XCTAssertThrowsError(try core.apply(.play(item: 2)), "the transport alone still refuses it")
        let again = try core.play(.index(1))
        XCTAssertNil(core.queue[id: 2]?.failure, "play N forgets the mark")
        XCTAssertEqual(Self.starts(again), [2], "and fetches it anew")
        XCTAssertEqual(core.transport.state, .loading(item: 2, autoplay: true))

        var (held, _) = holding()
        let retried = held.clearError()
        XCTAssertEqual(Self.timers(retried), [.disarmRetry(.waiting)])
        XCTAssertEqual(Self.starts(retried), [2], "retry tries now")
    }
}
