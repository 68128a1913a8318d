import PreviewCore
import XCTest

/// Heads in the core: which are started, kept, let go and adopted as answers, taps, visible rows
/// and the queue change; checked as effects, with no threads, network or audio.
final class PlayerCoreHeadsTests: XCTestCase {
    typealias Effect = PlayerCore.Effect
    static func url(_ i: Int) -> String { "https://example.com/\(i).m4a" }
    static func tracks(_ range: Range<Int>) -> [Track] { range.map { Track(trackId: $0, previewUrl: url($0)) } }

    /// A core with heads for `k` results and `k` queue items (room for both lists).
    static func core(k: Int = 3) -> PlayerCore {
        var policy = PlayerCore.Policy(ahead: 1, behind: 1, depthMs: 250)
        policy.heads = HeadPlan(perList: k, budgetBytes: 16 << 20, windowLoads: 3)
        return PlayerCore(policy: policy)
    }

    /// The URLs whose heads the effects start, in order.
    static func started(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .startHead(_, let url, _, _) = $0 { return url } else { return nil } }
    }

    /// The URLs whose downloads the effects let go.
    static func cancelled(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .cancelDownload(let url) = $0 { return url } else { return nil } }
    }

    func testAnAnswerStartsTheHeadsOfItsFirstResultsWithinKTransfersAndANewAnswerLetsTheOldOnesGo() {
        var core = Self.core(k: 3)
        let effects = core.answered(Self.tracks(0..<10))
        XCTAssertEqual(Self.started(effects), [0, 1, 2].map(Self.url))
        XCTAssertTrue(effects.contains(.startHead(core.heads[Self.url(0)]!.id, url: Self.url(0), bytes: 64 << 10, depthMs: 250)))
        XCTAssertEqual(Set(core.heads.keys), Set([0, 1, 2].map(Self.url)), "the queue is empty: only the answer's")

        // The same answer again changes nothing: the heads and their transfers go on.
        XCTAssertEqual(core.answered(Self.tracks(0..<10)), [])

        // A new answer: the old heads are let go, transfer and decoder, and the new ones start.
        let next = core.answered(Self.tracks(20..<30))
        XCTAssertEqual(Set(Self.cancelled(next)), Set([0, 1, 2].map(Self.url)))
        XCTAssertEqual(next.filter { if case .cancelSlot = $0 { return true } else { return false } }.count, 3)
        XCTAssertEqual(Self.started(next), [20, 21, 22].map(Self.url))
    }

    func testNoMoreThanKHeadsArriveAtOnce() {
        var core = Self.core(k: 2)
        XCTAssertEqual(Self.started(core.answered(Self.tracks(0..<10))), [0, 1].map(Self.url))
        let queued = core.replaceQueue(with: Self.tracks(100..<110), play: false)   // stopped: the queue's first two
        XCTAssertEqual(Self.started(queued), [], "two transfers at once")
        XCTAssertEqual(Set(core.heads.keys), Set([0, 1].map(Self.url)), "what is on screen first")
        // One head's range is in: the next one starts, the queue's first.
        XCTAssertEqual(Self.started(core.handle(.headFetched(url: Self.url(0)))), [Self.url(100)])
        XCTAssertEqual(Self.started(core.handle(.downloadEnded(url: Self.url(1), complete: true))), [Self.url(101)],
                       "a head that was the whole preview has ended its transfer too")
        XCTAssertEqual(core.heads.count, 4)
    }

    func testATapReplacesTheQueueAndPlaysTheHeadItAlreadyHasWithoutFetchingItAgain() throws {
        var core = Self.core(k: 4)
        _ = core.answered(Self.tracks(0..<6))
        let head = core.heads[Self.url(3)]!
        _ = core.handle(.parked(head.id))   // its first frames are ready

        let tap = try core.place(Self.tracks(0..<6), at: nil, play: false, morePages: false, start: 3)
        XCTAssertEqual(core.current?.id, head.id, "the head's slot is the load")
        XCTAssertEqual(core.position, 3)
        XCTAssertTrue(tap.effects.contains(.widenDownload(url: Self.url(3), trackId: 3)))
        XCTAssertTrue(tap.effects.contains(.decodeWhole(head.id)))
        XCTAssertTrue(tap.effects.contains(.play(head.id, paused: false, title: nil, artist: nil)), "its audio is ready: it plays at once")
        XCTAssertFalse(tap.effects.contains { if case .startDownload = $0 { return true } else { return false } },
                       "no byte fetched twice")
        XCTAssertFalse(tap.effects.contains { if case .startSlot = $0 { return true } else { return false } })
        XCTAssertEqual(PlayerCoreTests.events(tap.effects).filter { if case .queue = $0 { return true } else { return false } }.count, 1,
                       "one change of the queue: no moment when it is empty")
        XCTAssertNil(core.heads[Self.url(3)])
        XCTAssertEqual(core.downloads[Self.url(3)], .arriving)
        XCTAssertTrue(Self.cancelled(tap.effects).isEmpty, "the other heads are still on screen, and around the current track")

        // Its whole download in, the neighbours adopt their heads: nothing fetched again either.
        let window = core.handle(.downloadEnded(url: Self.url(3), complete: true))
        XCTAssertTrue(window.contains(.widenDownload(url: Self.url(2), trackId: 2)))
        XCTAssertFalse(window.contains(.startDownload(url: Self.url(2), trackId: 2)))
        XCTAssertTrue(window.contains(.startDownload(url: Self.url(4), trackId: 4)), "not among the answer's first four: a new download")
    }

    func testATapOnAResultThatCannotPlayOrIsNotThereChangesNothing() {
        var core = Self.core()
        var results = Self.tracks(0..<4)
        results[2].previewUrl = nil
        XCTAssertThrowsError(try core.place(results, at: nil, play: false, morePages: false, start: 2))
        XCTAssertThrowsError(try core.place(results, at: nil, play: false, morePages: false, start: 4))
        XCTAssertThrowsError(try core.place(results, at: .end, play: false, morePages: false, start: 0))
        XCTAssertTrue(core.queue.isEmpty)
        // Past the unplayable one, the index still names the result asked for.
        _ = try? core.place(results, at: nil, play: false, morePages: false, start: 3)
        XCTAssertEqual(core.transport.item.flatMap { core.queue[id: $0]?.track.trackId }, 3)
    }

    func testAFailedHeadIsNotAskedForAgainUntilItIsPlayed() throws {
        var core = Self.core(k: 2)
        _ = core.answered(Self.tracks(0..<4))
        let failed = core.handle(.downloadEnded(url: Self.url(0), complete: false))
        XCTAssertEqual(Self.cancelled(failed), [Self.url(0)])
        XCTAssertEqual(core.failedHeads, [Self.url(0)])
        XCTAssertEqual(Self.started(failed), [], "the first K results are what is on screen: no other takes its place")
        XCTAssertTrue(Self.started(core.answered(Self.tracks(0..<4))).isEmpty, "the same answer again: no retry")

        // A decoder that cannot start from the head (its header past it) fails the head the same way.
        let id = core.heads[Self.url(1)]!.id
        _ = core.handle(.failed(id, "the preview's first seconds are not enough to start it", afterMs: 0))
        XCTAssertEqual(core.failedHeads, [Self.url(0), Self.url(1)])

        // Played, it is fetched whole, and may have a head again later.
        let tap = try core.place(Self.tracks(0..<4), at: nil, play: true, morePages: false, start: 0)
        XCTAssertTrue(tap.effects.contains(.startDownload(url: Self.url(0), trackId: 0)))
        XCTAssertEqual(core.failedHeads, [Self.url(1)])
    }

    func testVisibleRowsTakeTheAnswersPlaceAndANewAnswerEndsThem() {
        var core = Self.core(k: 2)
        _ = core.answered(Self.tracks(0..<10))
        let scrolled = core.show(trackIds: [7, 8, 9, 999])
        XCTAssertEqual(Set(Self.cancelled(scrolled)), Set([0, 1].map(Self.url)))
        XCTAssertEqual(Self.started(scrolled), [7, 8].map(Self.url), "an id never seen is left out; K at once")
        XCTAssertEqual(core.visible, [7, 8, 9].map(Self.url))
        _ = core.answered(Self.tracks(0..<10))
        XCTAssertNil(core.visible)
        XCTAssertEqual(Set(core.heads.keys), Set([0, 1].map(Self.url)))
    }

    func testAHeadOfTheQueueBecomesTheNeighbourAndASeekIntoItsTrackKeepsItsBytes() throws {
        var core = Self.core(k: 2)
        _ = core.replaceQueue(with: Self.tracks(0..<6), play: false)
        XCTAssertEqual(Set(core.heads.keys), Set([0, 1].map(Self.url)), "stopped: the top of the queue")
        let head0 = core.heads[Self.url(0)]!.id
        let play = try core.play(.index(0))
        XCTAssertEqual(core.current?.id, head0)
        XCTAssertTrue(play.contains(.widenDownload(url: Self.url(0), trackId: 0)))
        let window = core.handle(.downloadEnded(url: Self.url(0), complete: true))
        XCTAssertTrue(window.contains(.widenDownload(url: Self.url(1), trackId: 1)), "the next one's head is its neighbour's start")
        XCTAssertEqual(Set(core.heads.keys), Set([2, 3].map(Self.url)), "the heads move on around the current track")

        // A seek into a track whose head is held: its bytes go on, its head's decoder goes.
        _ = try core.play(.index(4), startMs: 0)
        let head3 = core.heads[Self.url(3)]?.id
        XCTAssertNotNil(head3)
        let seek = try core.play(.index(3), startMs: 5_000)
        XCTAssertTrue(seek.contains(.widenDownload(url: Self.url(3), trackId: 3)))
        XCTAssertTrue(seek.contains(.cancelSlot(head3!)))
        XCTAssertFalse(seek.contains(.startDownload(url: Self.url(3), trackId: 3)))
    }

    func testWithNoHeadsNothingChanges() {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
        XCTAssertEqual(core.answered(Self.tracks(0..<10)), [])
        XCTAssertEqual(core.show(trackIds: [1, 2]), [])
        _ = core.replaceQueue(with: Self.tracks(0..<6), play: false)
        XCTAssertTrue(core.heads.isEmpty)
    }
}
