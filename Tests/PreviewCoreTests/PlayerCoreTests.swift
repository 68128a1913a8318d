import PreviewCore
import XCTest

/// The player's decisions, checked as effects: the prefetch window, the gapless follower, output loss,
/// failed tracks and queue edits, in microseconds, with no threads, network or audio.
final class PlayerCoreTests: XCTestCase {
    typealias Effect = PlayerCore.Effect
    static let tracks = (0..<5).map { Track(trackId: $0, previewUrl: url($0)) }
    static func url(_ i: Int) -> String { "https://example.com/\(i).m4a" }

    /// Slot ids of the effects that start decodings, in order, with their queue index and start.
    private func started(_ effects: [Effect]) -> [(id: UInt64, index: Int, startMs: Int, head: Bool)] {
        effects.compactMap {
            guard case .startSlot(let slot, let head) = $0 else { return nil }
            return (slot.id, slot.index, slot.startMs, head != nil)
        }
    }

    /// A core playing track 0 of the five, its download complete and its neighbour (1) prefetched.
    private func playing(ahead: Int = 1, behind: Int = 1) -> PlayerCore {
        var core = PlayerCore(policy: .init(ahead: ahead, behind: behind, headMs: 250))
        let first = core.replaceQueue(with: Self.tracks, play: true)
        XCTAssertEqual(first, [.startDownload(url: Self.url(0)), .startSlot(core.current!, headMs: nil)])
        let id = core.current!.id
        XCTAssertEqual(core.handle(.ready(id, containerMs: 30_000)), [.play(id, paused: false)])
        _ = core.handle(.downloadEnded(url: Self.url(0), complete: true))
        return core
    }

    func testNeighboursWaitForTheCurrentDownloadThenPrefetchAheadAndBehindAndTheFollowerIsHandedOver() {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 1, headMs: 250))
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let current = core.current!.id
        XCTAssertEqual(core.handle(.ready(current, containerMs: 30_000)), [.play(current, paused: false)],
                       "no neighbour while the current track still downloads")
        let effects = core.handle(.downloadEnded(url: Self.url(0), complete: true))
        let next = core.prefetched[1]!
        XCTAssertEqual(effects, [.startDownload(url: Self.url(1)), .startSlot(next, headMs: 250), .follow(next.id)])
        XCTAssertNil(core.prefetched[4], "no previous track at the top with repeat off")

        XCTAssertEqual(core.currentDurationMs, 30_000)
        _ = core.handle(.finished(current, ms: 29_980))
        XCTAssertEqual(core.currentDurationMs, 29_980, "the decoder's count replaces the container's")
    }

    func testNextAndPrevSwapToPrefetchedSlotsAndTheWindowMovesWithThem() throws {
        var core = playing()
        let first = core.current!.id
        let next = core.prefetched[1]!.id
        _ = core.handle(.parked(next))

        let forward = try core.apply(.next)
        XCTAssertEqual(core.current?.id, next, "next plays the prefetched slot")
        XCTAssertTrue(forward.contains(.decodeWhole(next)))
        XCTAssertTrue(forward.contains(.play(next, paused: false)), "its head is ready: it plays at once")
        XCTAssertTrue(forward.contains(.cancelSlot(first)))
        XCTAssertTrue(started(forward).isEmpty, "the neighbours wait for track 1's download: it is still arriving")
        XCTAssertFalse(forward.contains(.cancelDownload(url: Self.url(0))), "track 0's bytes stay for prev")

        let window = core.handle(.downloadEnded(url: Self.url(1), complete: true))
        XCTAssertEqual(started(window).map(\.index).sorted(), [0, 2], "behind (from the kept bytes) and ahead")
        XCTAssertFalse(window.contains(.startDownload(url: Self.url(0))))
        let behind = core.prefetched[0]!.id
        _ = core.handle(.ready(behind, containerMs: 30_000))

        let back = try core.apply(.prev)
        XCTAssertEqual(core.current?.id, behind)
        XCTAssertTrue(back.contains(.play(behind, paused: false)))
    }

    func testSeekDecodesTheSameBytesFromThePositionAndPastTheEndIsNotTheCoresBusiness() throws {
        var core = playing()
        let before = core.current!.id
        let effects = try core.apply(.seek(toMs: 12_000))
        let slot = try XCTUnwrap(started(effects).first)
        XCTAssertEqual(slot.startMs, 12_000)
        XCTAssertFalse(slot.head)
        XCTAssertFalse(effects.contains(.startDownload(url: Self.url(0))), "the download is shared, not fetched again")
        XCTAssertTrue(effects.contains(.cancelSlot(before)))
        XCTAssertNil(core.currentDurationMs, "a new decoding learns its own duration")
    }

    func testTheFollowerTakesOverGaplesslyWhenTheOutputMovesToIt() {
        var core = playing()
        let first = core.current!.id
        let follower = core.prefetched[1]!.id
        XCTAssertEqual(core.follower, follower)
        _ = core.handle(.parked(follower))
        // The output drains track 0 and moves to the follower in the same stream, then says so.
        let ended = core.handle(.drained(first))
        XCTAssertEqual(core.current?.id, follower)
        XCTAssertEqual(core.transport.index, 1)
        XCTAssertTrue(ended.contains(.decodeWhole(follower)), "its decoding goes on from the parked head")
        XCTAssertTrue(ended.contains(.play(follower, paused: false)), "already the output's feed: this only uncorks")
        XCTAssertNil(core.follower)
        XCTAssertEqual(core.handle(.started(follower)), [])
        XCTAssertEqual(core.outputSlot, follower)
    }

    func testOutputLossKeepsThePositionAndTheReturnDecodesFromThere() {
        var core = playing()
        let lost = core.handle(.outputLost("server gone", heardMs: 4_200))
        XCTAssertTrue(core.transport.outputLost)
        XCTAssertEqual(core.heardAtLossMs, 4_200)
        XCTAssertFalse(lost.contains { if case .follow(.some) = $0 { return true } else { return false } })
        let back = core.handle(.outputBack)
        XCTAssertFalse(core.transport.outputLost)
        XCTAssertNil(core.heardAtLossMs)
        XCTAssertEqual(started(back).first?.startMs, 4_200, "the sound goes on where it stopped")
        let id = core.current!.id
        XCTAssertEqual(core.handle(.ready(id, containerMs: nil)).first, .play(id, paused: false))
    }

    func testAFailedTrackIsMarkedAndTheNextOnePlaysAndAFailedNeighbourIsSkippedEarly() {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let broken = core.current!.id
        let effects = core.handle(.failed(broken, "not an audio file", afterMs: 0))
        XCTAssertEqual(effects.first, .trackFailed(index: 0, message: "not an audio file", neighbour: false))
        XCTAssertEqual(core.transport.index, 1)
        XCTAssertEqual(started(effects).map(\.index), [1])
        XCTAssertFalse(core.queue.items[0].isPlayable)

        var playingCore = playing()
        let neighbour = playingCore.prefetched[1]!.id
        let skipped = playingCore.handle(.failed(neighbour, "HTTP 404", afterMs: 0))
        XCTAssertTrue(skipped.contains(.trackFailed(index: 1, message: "HTTP 404", neighbour: true)))
        XCTAssertEqual(playingCore.prefetched[2].map(\.index), 2, "the next playable track is prefetched instead")
        XCTAssertEqual(playingCore.follower, playingCore.prefetched[2]?.id)

        // Cut off after good audio: what was decoded plays, then the track ends there.
        var cut = playing()
        let id = cut.current!.id
        XCTAssertEqual(cut.handle(.failed(id, "truncated", afterMs: 9_000)), [])
        XCTAssertEqual(cut.currentDurationMs, 9_000)
    }

    func testEventsOfSlotsNoLongerHeldChangeNothing() throws {
        var core = playing()
        let old = core.current!.id
        _ = try core.apply(.next)
        let before = core
        for event: PlayerCore.Event in [.ready(old, containerMs: 1), .finished(old, ms: 5), .failed(old, "late", afterMs: 0),
                                        .drained(old), .underrun(old), .refilled(old), .parked(old)] {
            XCTAssertEqual(core.handle(event), [], "\(event)")
        }
        XCTAssertEqual(core, before)
    }

    func testQueueEditsKeepTheRightTrackAndChooseTheNeighboursAgain() throws {
        var core = playing()
        let current = core.current!.id
        // Moving the playing track keeps it playing at its new place.
        let moved = core.edit { $0.move(from: 0, to: 3) }
        XCTAssertEqual(core.current?.id, current)
        XCTAssertEqual(core.current?.index, 3)
        XCTAssertEqual(core.transport.index, 3)
        XCTAssertFalse(moved.contains(.cancelSlot(current)))
        XCTAssertEqual(Set(started(moved).map(\.index)), [2, 4], "neighbours of its new place")

        // Removing it plays the one after it.
        let removed = core.edit { $0.remove(at: 3) }
        XCTAssertTrue(removed.contains(.cancelSlot(current)))
        XCTAssertEqual(core.transport.index, 3)
        XCTAssertEqual(core.queue.items[3].track.trackId, 4)

        // Clearing stops everything and lets every download go.
        let cleared = core.edit { $0.removeAll() }
        XCTAssertTrue(cleared.contains(.stopOutput))
        XCTAssertTrue(core.downloads.isEmpty)
        XCTAssertNil(core.current)
        XCTAssertTrue(core.prefetched.isEmpty)
    }

    func testRepeatAllWrapsThePrefetchWindowAndShuffleFollowsThePlayOrder() throws {
        var core = playing()
        _ = try core.apply(.play(index: 4))
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        _ = core.handle(.downloadEnded(url: Self.url(4), complete: true))
        XCTAssertNil(core.prefetched[0], "repeat off: nothing after the last track")
        _ = try core.apply(.setRepeat(.all))
        XCTAssertNotNil(core.prefetched[0], "repeat all: the first track follows the last")
        XCTAssertEqual(core.follower, core.prefetched[0]?.id)

        _ = try core.apply(.setShuffle(true, seed: 42))
        let upcoming = try XCTUnwrap(core.transport.upcoming(in: core.queue))
        XCTAssertNotNil(core.prefetched[upcoming], "the neighbour is the shuffled order's next")
        XCTAssertEqual(core.follower, core.prefetched[upcoming]?.id)
    }

    func testStopDropsEverythingAndPauseOnlyCorks() throws {
        var core = playing()
        XCTAssertEqual(try core.apply(.pause), [.pauseOutput])
        XCTAssertEqual(try core.apply(.resume), [.resumeOutput])
        let stopped = try core.apply(.stop)
        XCTAssertEqual(stopped.first, .stopOutput)
        XCTAssertTrue(stopped.contains(.cancelDownload(url: Self.url(0))))
        XCTAssertNil(core.current)
        XCTAssertTrue(core.downloads.isEmpty)
        XCTAssertNil(core.follower)
        XCTAssertThrowsError(try core.apply(.pause))
    }

    func testANewQueueWithoutPlayStopsAndLetsTheOldTracksGo() {
        var core = playing()
        let old = core.current!.id
        let effects = core.replaceQueue(with: Array(Self.tracks.reversed()), play: false)
        XCTAssertTrue(effects.contains(.stopOutput))
        XCTAssertTrue(effects.contains(.cancelSlot(old)))
        XCTAssertTrue(effects.contains(.cancelDownload(url: Self.url(1))), "the old neighbour's bytes go")
        XCTAssertEqual(core.transport.playbackState, .stopped)
        XCTAssertEqual(core.transport.index, 0)
        XCTAssertTrue(core.downloads.isEmpty)
        XCTAssertNil(core.current)
    }

    func testAFailedDownloadOfTheCurrentTrackLetsTheNeighboursStartAndAFailedOneIsFetchedAgain() throws {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let window = core.handle(.downloadEnded(url: Self.url(0), complete: false))
        XCTAssertEqual(started(window).map(\.index), [1], "the neighbour does not wait for a download that has ended")
        // Seeking on the failed download fetches it again (another try may succeed).
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        let seek = try core.apply(.seek(toMs: 1_000))
        XCTAssertEqual(Array(seek.prefix(2)), [.cancelDownload(url: Self.url(0)), .startDownload(url: Self.url(0))])
    }
}
