import PreviewCore
import XCTest

/// While a page plays here it keeps the clock (`PlayerCore+PageClock`): the box hands its output no
/// follower and its end of a track waits for the page's; a page gone or let go gives the box its
/// ends back. Checked as effects, with no threads, network or audio.
final class PlayerCorePageClockTests: XCTestCase {
    private typealias Tests = PlayerCoreTests

    /// A core playing track 0 of five, its download complete, track 1 prefetched and handed over
    /// as the follower, then a page keeping the clock.
    private func pagePlaying() -> (core: PlayerCore, first: UInt64, next: UInt64) {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
        _ = core.replaceQueue(with: Tests.tracks, play: true)
        let first = core.current!.id
        _ = core.handle(.ready(first, containerMs: 30_000))
        _ = core.handle(.downloadEnded(url: Tests.url(0), complete: true))
        let next = core.prefetched[Tests.item(1)]!.id
        _ = core.handle(.parked(next))
        XCTAssertEqual(core.follower, next, "before the page: the gapless follower")
        let claimed = core.pageKeepsClock(true)
        XCTAssertEqual(Tests.work(claimed), [.follow(nil)], "the box does not run into the next track by itself")
        XCTAssertNil(core.follower)
        XCTAssertTrue(core.pageClock.kept)
        return (core, first, next)
    }

    func testTheBoxsEndWaitsForThePagesWhichAdvancesOnce() throws {
        var (core, first, next) = pagePlaying()
        let boxEnd = core.handle(.drained(first))
        XCTAssertEqual(Tests.work(boxEnd), [], "the box's copy ended: nothing moves, its output stands silent")
        XCTAssertEqual(Tests.events(boxEnd), [])
        XCTAssertEqual(core.transport.item, Tests.item(0))
        XCTAssertEqual(core.transport.playbackState, .playing)
        XCTAssertEqual(core.pageClock.heldEnd, first)

        let pageEnd = try core.apply(.trackEnded)   // the page's `ended`, as the player feeds it
        XCTAssertEqual(core.transport.item, Tests.item(1))
        XCTAssertEqual(core.current?.id, next, "the prefetched slot plays")
        XCTAssertTrue(pageEnd.contains(Tests.play(next)))
        XCTAssertTrue(pageEnd.contains(.cancelSlot(first)))
        XCTAssertEqual(Tests.events(pageEnd).filter { if case .track = $0 { return true } else { return false } }.count, 1, "one track change")
        XCTAssertNil(core.follower, "still none while the page keeps the clock")
        _ = core.handle(.downloadEnded(url: Tests.url(1), complete: true))
        XCTAssertNotNil(core.prefetched[Tests.item(2)], "the neighbours are prefetched as ever (the page's next is there for the box)")
        XCTAssertNil(core.follower)
        XCTAssertEqual(Tests.work(core.handle(.drained(first))), [], "a late end of the load left changes nothing")
        XCTAssertEqual(core.transport.item, Tests.item(1))
    }

    func testAPageGoneOrLetGoGivesTheBoxItsEndBack() {
        var (core, first, next) = pagePlaying()
        _ = core.handle(.drained(first))
        let released = core.pageKeepsClock(false)
        XCTAssertEqual(core.transport.item, Tests.item(1), "the held end counts now: the track ended")
        XCTAssertEqual(core.current?.id, next)
        XCTAssertTrue(released.contains(Tests.play(next)))
        XCTAssertNil(core.pageClock.heldEnd)
        XCTAssertFalse(core.pageClock.kept)
        XCTAssertEqual(Tests.work(core.pageKeepsClock(false)), [], "told twice: nothing more")

        // With no end held, letting go only hands the follower back, and the box's ends count again.
        var (other, otherFirst, otherNext) = pagePlaying()
        XCTAssertEqual(Tests.work(other.pageKeepsClock(false)), [.follow(otherNext)])
        _ = other.handle(.drained(otherFirst))
        XCTAssertEqual(other.transport.item, Tests.item(1), "the box's own end advances again")
    }

    func testAHeldEndLetGoWhilePausedCountsAtTheResume() throws {
        // The page gone with the box's copy at its end: previewd pauses, then the page is let go.
        var (core, first, next) = pagePlaying()
        _ = core.handle(.drained(first))
        _ = try core.apply(.pause)
        _ = core.pageKeepsClock(false)
        XCTAssertEqual(core.transport.item, Tests.item(0), "paused: nothing moves")
        XCTAssertEqual(core.transport.playbackState, .paused)
        let resumed = try core.play(nil)
        XCTAssertEqual(core.transport.item, Tests.item(1), "`play` at the box's end: the track ended, the next plays")
        XCTAssertEqual(core.current?.id, next)
        XCTAssertTrue(resumed.contains(Tests.play(next)))
        XCTAssertNil(core.pageClock.heldEnd)
    }

    func testAHeldEndMovedByASeekCountsNoMore() throws {
        var (core, first, _) = pagePlaying()
        _ = core.handle(.drained(first))
        // The page was gone mid-track: the box is moved to where the page was, then let go.
        _ = try core.seek(.absolute(ms: 20_000), heardMs: 30_000)
        XCTAssertNotEqual(core.current?.id, first)
        _ = core.pageKeepsClock(false)
        XCTAssertEqual(core.transport.item, Tests.item(0), "the box plays on from where the page was")
        XCTAssertEqual(core.current?.startMs, 20_000)
    }

    func testAFollowerTheOutputTookInTheSameMomentStillMovesTheTransport() {
        // The claim came as the output moved into the follower it had been handed: `drained` and
        // `started` follow, and the transport must follow the output (the box did leave the track).
        var (core, first, next) = pagePlaying()
        _ = core.handle(.drained(first))
        XCTAssertEqual(core.transport.item, Tests.item(0))
        _ = core.handle(.started(next))
        XCTAssertEqual(core.transport.item, Tests.item(1))
        XCTAssertEqual(core.current?.id, next)
        XCTAssertEqual(core.outputSlot, next)
        XCTAssertNil(core.pageClock.heldEnd)
    }

    func testThePagesEndIsANaturalEndUnderRepeatOneAndSingle() throws {
        var (core, first, _) = pagePlaying()
        _ = try core.apply(.setRepeat(.one))
        _ = core.handle(.drained(first))
        _ = try core.apply(.trackEnded)
        XCTAssertEqual(core.transport.item, Tests.item(0), "repeat one: the same track again")
        XCTAssertNotEqual(core.current?.id, first)
        XCTAssertEqual(core.transport.playbackState, .loading)

        var (single, singleFirst, _) = pagePlaying()
        _ = try single.apply(.setSingle(.on))
        _ = single.handle(.drained(singleFirst))
        XCTAssertEqual(single.transport.playbackState, .playing, "the box's end waits")
        _ = try single.apply(.trackEnded)
        XCTAssertEqual(single.transport.playbackState, .stopped, "single: the page's end stops there")
    }
}
