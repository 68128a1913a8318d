import PreviewCore
import XCTest

/// The player's decisions, checked as effects: the prefetch window, the gapless follower, output loss,
/// failed tracks and queue edits, in microseconds, with no threads, network or audio.
final class PlayerCoreTests: XCTestCase {
    typealias Effect = PlayerCore.Effect
    static let tracks = (0..<5).map { Track(trackId: $0, previewUrl: url($0)) }
    static func url(_ i: Int) -> String { "https://example.com/\(i).m4a" }

    /// The first queue of a core: track i is item i + 1.
    static func item(_ index: Int) -> Int { index + 1 }

    /// Slot ids of the effects that start decodings, in order, with their queue item and start.
    private func started(_ effects: [Effect]) -> [(id: UInt64, item: Int, startMs: Int, head: Bool)] {
        effects.compactMap {
            guard case .startSlot(let slot, let head) = $0 else { return nil }
            return (slot.id, slot.item, slot.startMs, head != nil)
        }
    }

    /// The effects that work on loads, downloads and the output (no events, gains or artwork).
    static func work(_ effects: [Effect]) -> [Effect] {
        effects.filter {
            switch $0 {
            case .notify, .setGain, .estimateLoudness, .fetchArtwork, .logFailure: return false
            default: return true
            }
        }
    }

    /// The events the effects tell subscribers, in order.
    static func events(_ effects: [Effect]) -> [ControlEvent] {
        effects.compactMap { if case .notify(let event) = $0 { return event } else { return nil } }
    }

    static func play(_ id: UInt64) -> Effect { .play(id, paused: false, title: nil, artist: nil) }
    static func download(_ i: Int) -> Effect { .startDownload(url: url(i), trackId: i) }

    /// A core playing track 0 of the five, its download complete and its neighbour (1) prefetched.
    private func playing(ahead: Int = 1, behind: Int = 1) -> PlayerCore {
        var core = PlayerCore(policy: .init(ahead: ahead, behind: behind, depthMs: 250))
        let first = core.replaceQueue(with: Self.tracks, play: true)
        XCTAssertEqual(Self.work(first), [Self.download(0), .startSlot(core.current!, depthMs: nil)])
        let id = core.current!.id
        XCTAssertEqual(Self.work(core.handle(.ready(id, containerMs: 30_000))), [Self.play(id)])
        _ = core.handle(.downloadEnded(url: Self.url(0), complete: true))
        return core
    }

    func testNeighboursWaitForTheCurrentDownloadThenPrefetchAheadAndBehindAndTheFollowerIsHandedOver() {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let current = core.current!.id
        XCTAssertEqual(Self.work(core.handle(.ready(current, containerMs: 30_000))), [Self.play(current)],
                       "no neighbour while the current track still downloads")
        let effects = Self.work(core.handle(.downloadEnded(url: Self.url(0), complete: true)))
        let next = core.prefetched[Self.item(1)]!
        XCTAssertEqual(effects.count, 3)
        XCTAssertEqual(effects.first, Self.download(1))
        XCTAssertEqual(started(effects).map(\.id), [next.id])
        XCTAssertEqual(effects.last, .follow(next.id))
        XCTAssertNil(core.prefetched[Self.item(4)], "no previous track at the top with repeat off")

        XCTAssertEqual(core.currentDurationMs, 30_000)
        _ = core.handle(.finished(current, ms: 29_980))
        XCTAssertEqual(core.currentDurationMs, 29_980, "the decoder's count replaces the container's")
    }

    func testNextAndPrevSwapToPrefetchedSlotsAndTheWindowMovesWithThem() throws {
        var core = playing()
        let first = core.current!.id
        let next = core.prefetched[Self.item(1)]!.id
        _ = core.handle(.parked(next))

        let forward = try core.apply(.next)
        XCTAssertEqual(core.current?.id, next, "next plays the prefetched slot")
        XCTAssertTrue(forward.contains(.decodeWhole(next)))
        XCTAssertTrue(forward.contains(Self.play(next)), "its head is ready: it plays at once")
        XCTAssertTrue(forward.contains(.cancelSlot(first)))
        XCTAssertTrue(started(forward).isEmpty, "the neighbours wait for track 1's download: it is still arriving")
        XCTAssertFalse(forward.contains(.cancelDownload(url: Self.url(0))), "track 0's bytes stay for prev")

        let window = core.handle(.downloadEnded(url: Self.url(1), complete: true))
        XCTAssertEqual(started(window).map(\.item).sorted(), [Self.item(0), Self.item(2)], "behind (from the kept bytes) and ahead")
        XCTAssertFalse(window.contains(Self.download(0)))
        let behind = core.prefetched[Self.item(0)]!.id
        _ = core.handle(.ready(behind, containerMs: 30_000))

        let back = try core.apply(.prev)
        XCTAssertEqual(core.current?.id, behind)
        XCTAssertTrue(back.contains(Self.play(behind)))
    }

    func testSeekDecodesTheSameBytesFromThePositionAndPastTheEndIsTheNextTrack() throws {
        var core = playing()
        let before = core.current!.id
        let effects = try core.seek(.relative(ms: 10_000), heardMs: 2_000)
        let slot = try XCTUnwrap(started(effects).first)
        XCTAssertEqual(slot.startMs, 12_000)
        XCTAssertFalse(slot.head)
        XCTAssertFalse(effects.contains(Self.download(0)), "the download is shared, not fetched again")
        XCTAssertTrue(effects.contains(.cancelSlot(before)))
        XCTAssertEqual(core.currentDurationMs, 30_000, "a seek keeps the track's length while its new decoder opens (status never loses it)")
        XCTAssertEqual(Self.events(effects), [.seeked(index: 0, ms: 12_000, id: 1), .state(.loading, index: 0, id: 1)], "a jump in the same track")

        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        _ = try core.seek(.absolute(ms: -5), heardMs: 0)
        XCTAssertEqual(core.current?.startMs, 0, "before the start is the start")
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        let past = try core.seek(.absolute(ms: 30_000), heardMs: 0)
        XCTAssertEqual(core.transport.item, Self.item(1), "past the end is the next track, as when it ends by itself")
        XCTAssertTrue(Self.events(past).contains { if case .track(index: 1, id: Self.item(1), _, _) = $0 { return true } else { return false } })
        _ = try core.apply(.stop)
        XCTAssertThrowsError(try core.seek(.absolute(ms: 1_000), heardMs: 0), "nothing to seek in")
    }

    func testTheFollowerTakesOverGaplesslyWhenTheOutputMovesToIt() {
        var core = playing()
        let first = core.current!.id
        let follower = core.prefetched[Self.item(1)]!.id
        XCTAssertEqual(core.follower, follower)
        _ = core.handle(.parked(follower))
        // The output drains track 0 and moves to the follower in the same stream, then says so.
        let ended = core.handle(.drained(first))
        XCTAssertEqual(core.current?.id, follower)
        XCTAssertEqual(core.transport.item, Self.item(1))
        XCTAssertTrue(ended.contains(.decodeWhole(follower)), "its decoding goes on from the parked head")
        XCTAssertTrue(ended.contains(Self.play(follower)), "already the output's feed: this only uncorks")
        XCTAssertNil(core.follower)
        XCTAssertEqual(Self.work(core.handle(.started(follower))), [])
        XCTAssertEqual(core.outputSlot, follower)
    }

    func testOutputLossKeepsThePositionAndTheReturnDecodesFromThere() {
        var core = playing()
        let lost = core.handle(.outputLost("server gone", heardMs: 4_200))
        XCTAssertTrue(core.transport.outputLost)
        XCTAssertEqual(core.lastError, "server gone")
        XCTAssertEqual(core.heardAtLossMs, 4_200)
        XCTAssertFalse(lost.contains { if case .follow(.some) = $0 { return true } else { return false } })
        let back = core.handle(.outputBack)
        XCTAssertFalse(core.transport.outputLost)
        XCTAssertNil(core.heardAtLossMs)
        XCTAssertEqual(started(back).first?.startMs, 4_200, "the sound goes on where it stopped")
        XCTAssertEqual(Self.events(lost), [.outputLost("server gone")])
        XCTAssertEqual(Self.events(back), [.seeked(index: 0, ms: 4_200, id: 1), .outputBack, .state(.loading, index: 0, id: 1)])
        XCTAssertNil(core.lastError, "cleared when the output is back")
        let id = core.current!.id
        XCTAssertEqual(Self.work(core.handle(.ready(id, containerMs: nil))).first, Self.play(id))
    }

    /// `next` while the output is away: the new track starts at 0:00, in `status` while it is
    /// away and when it is back (issue 55: `loading 1 at 1006 ms`); a seek meanwhile is kept.
    func testATrackChosenWhileTheOutputIsAwayStartsAtItsBeginning() throws {
        var core = playing()
        _ = core.handle(.outputLost("server gone", heardMs: 1_006))
        _ = try core.apply(.next)
        XCTAssertEqual(core.transport.item, Self.item(1))
        XCTAssertEqual(core.heardAtLossMs, 0, "what status says while the output is away")
        _ = core.handle(.outputBack)
        XCTAssertEqual(core.current?.startMs, 0, "and where the sound goes on")
        _ = core.handle(.outputLost("server gone", heardMs: 500))
        _ = try core.seek(.absolute(ms: 7_000), heardMs: 500)
        XCTAssertEqual(core.heardAtLossMs, 7_000)
        _ = core.handle(.outputBack)
        XCTAssertEqual(core.current?.startMs, 7_000)
    }

    func testAFailedTrackIsMarkedAndTheNextOnePlaysAndAFailedNeighbourIsSkippedEarly() {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let broken = core.current!.id
        let effects = core.handle(.failed(broken, "not an audio file", afterMs: 0))
        XCTAssertEqual(effects.first, .logFailure("track 1 failed: not an audio file"))
        XCTAssertEqual(Self.events(effects).prefix(2), [.queue(length: 5, version: 2), .error("track 1: not an audio file")])
        XCTAssertEqual(core.lastError, "track 1: not an audio file")
        XCTAssertEqual(core.transport.item, Self.item(1))
        XCTAssertEqual(started(effects).map(\.item), [Self.item(1)])
        XCTAssertFalse(core.queue.items[0].isPlayable)

        var playingCore = playing()
        let neighbour = playingCore.prefetched[Self.item(1)]!.id
        let skipped = playingCore.handle(.failed(neighbour, "HTTP 404", afterMs: 0))
        XCTAssertTrue(skipped.contains(.logFailure("track 2 failed while prefetching: HTTP 404")))
        XCTAssertNil(playingCore.lastError, "a neighbour's failure is not the current track's error")
        XCTAssertEqual(playingCore.prefetched[Self.item(2)].map(\.item), Self.item(2), "the next playable track is prefetched instead")
        XCTAssertEqual(playingCore.follower, playingCore.prefetched[Self.item(2)]?.id)

        // Cut off after good audio: what was decoded plays, then the track ends there.
        var cut = playing()
        let id = cut.current!.id
        XCTAssertEqual(Self.work(cut.handle(.failed(id, "truncated", afterMs: 9_000))), [])
        XCTAssertEqual(cut.currentDurationMs, 9_000)
    }

    func testEventsOfSlotsNoLongerHeldChangeNothing() throws {
        var core = playing()
        let old = core.current!.id
        _ = try core.apply(.next)
        let before = core
        for event: PlayerCore.Event in [.ready(old, containerMs: 1), .finished(old, ms: 5), .failed(old, "late", afterMs: 0),
                                        .drained(old), .underrun(old), .refilled(old), .parked(old), .estimated(old, nil)] {
            XCTAssertEqual(core.handle(event), [], "\(event)")
        }
        XCTAssertEqual(core, before)
    }

    func testQueueEditsKeepTheRightTrackByIdAndChooseTheNeighboursAgain() throws {
        var core = playing()
        let current = core.current!.id
        // Moving the playing track keeps it playing at its new place: the same item, the same load.
        let moved = try core.move(.index(0), to: .index(3))
        XCTAssertEqual(core.current?.id, current)
        XCTAssertEqual(core.transport.item, Self.item(0))
        XCTAssertEqual(core.position, 3)
        XCTAssertFalse(moved.contains(.cancelSlot(current)))
        XCTAssertEqual(Set(started(moved).map(\.item)), [Self.item(3), Self.item(4)], "neighbours of its new place")
        XCTAssertEqual(Self.events(moved), [.queue(length: 5, version: 2), .state(.playing, index: 3, id: 1)])

        // Moving a neighbour by id keeps what is held for it.
        let neighbour = try XCTUnwrap(core.prefetched[Self.item(3)]?.id)
        let shuffled = try core.move(.id(Self.item(3)), to: .index(0))
        XCTAssertEqual(core.queue.ids, [4, 2, 3, 1, 5])
        XCTAssertTrue(shuffled.contains(.cancelSlot(neighbour)), "no longer next to the current track")

        // Removing the playing track plays the one after it.
        let removed = try core.remove(.id(Self.item(0)))
        XCTAssertTrue(removed.contains(.cancelSlot(current)))
        XCTAssertEqual(core.queue.ids, [4, 2, 3, 5])
        XCTAssertEqual(core.transport.item, 5, "the item that followed it")
        XCTAssertThrowsError(try core.remove(.id(Self.item(0))), "ids are never reused") { error in
            XCTAssertEqual((error as? ControlError)?.message, "no track with id 1 in the queue")
        }
        XCTAssertThrowsError(try core.remove(.index(9))) { error in
            XCTAssertEqual((error as? ControlError)?.message, "no track at index 9 (the queue has 4)")
        }

        // Clearing stops everything and lets every download go; clearing an empty queue changes nothing.
        let cleared = core.clear()
        XCTAssertTrue(cleared.contains(.stopOutput))
        XCTAssertTrue(core.downloads.isEmpty)
        XCTAssertNil(core.current)
        XCTAssertTrue(core.prefetched.isEmpty)
        let version = core.queue.version
        XCTAssertEqual(core.clear(), [])
        XCTAssertEqual(core.queue.version, version)
    }

    func testEveryQueueChangeMovesTheVersionOnceAndSaysSoFirst() throws {
        var core = playing()
        var version = core.queue.version
        let changes: [(String, (inout PlayerCore) throws -> [Effect])] = [
            ("move", { try $0.move(.index(1), to: .index(2)) }),
            ("remove", { try $0.remove(.index(4)) }),
            ("append", { try $0.place([Self.tracks[0]], at: .end, play: false, morePages: nil).effects }),
            ("replace", { $0.replaceQueue(with: Self.tracks, play: true) }),
            ("clear", { $0.clear() }),
        ]
        for (name, change) in changes {
            let effects = try change(&core)
            XCTAssertEqual(core.queue.version, version + 1, name)
            XCTAssertEqual(Self.events(effects).first, .queue(length: core.queue.count, version: version + 1), name)
            XCTAssertEqual(Self.events(effects).filter { if case .queue = $0 { return true } else { return false } }.count, 1, name)
            version = core.queue.version
        }
    }

    func testACatalogAnswerLandsOnTheQueueAsItIsWhenItArrives() throws {
        // A client asked to add; meanwhile another removed and moved items. The answer is
        // appended at the end of the queue as it is now, with new ids; nothing shifts under it.
        var core = playing()
        let asked = core.queue.count
        _ = try core.remove(.index(1))
        _ = try core.move(.index(0), to: .index(2))
        let added = [Track(trackId: 10, previewUrl: Self.url(10)), Track(trackId: 11, previewUrl: Self.url(11))]
        let placement = try core.place(added, at: .end, play: true, morePages: nil)
        XCTAssertEqual(placement.firstIndex, asked - 1)
        XCTAssertEqual(placement.ids, [6, 7], "new ids, never one of the removed")
        XCTAssertEqual(core.queue.items.suffix(2).map(\.track.trackId), [10, 11])
        XCTAssertEqual(core.transport.item, Self.item(0), "playing on: `play` starts them only when nothing plays")

        // Refused whole when it does not fit; the queue is unchanged.
        let full = [Track](repeating: added[0], count: PlayQueue.maxCount)
        let before = core.queue
        XCTAssertThrowsError(try core.place(full, at: .end, play: false, morePages: nil))
        XCTAssertEqual(core.queue, before)
    }

    func testThePlayableFilterKeepsOutWhatCannotPlay() throws {
        var policy = PlayerCore.Policy()
        policy.localOrigin = "http://127.0.0.1:8080"
        var core = PlayerCore(policy: policy)
        let results = [Track(trackId: 1, previewUrl: Self.url(1)), Track(trackId: 2),
                       Track(trackId: 3, previewUrl: "http://127.0.0.1:8080/secret.m4a")]
        let placement = try core.place(results, at: nil, play: true, morePages: false)
        XCTAssertEqual(placement.notQueued.map(\.result), [1, 2])
        XCTAssertEqual(core.queue.items.map(\.track.trackId), [1])
        let nothing = try core.place([Track(trackId: 2)], at: nil, play: true, morePages: false)
        XCTAssertEqual(nothing.ids, [])
        XCTAssertEqual(core.queue.items.map(\.track.trackId), [1], "nothing playable leaves the queue as it was")
    }

    func testRepeatAllWrapsThePrefetchWindowAndShuffleFollowsThePlayOrderOfIds() throws {
        var core = playing()
        _ = try core.play(.index(4))
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        _ = core.handle(.downloadEnded(url: Self.url(4), complete: true))
        XCTAssertNil(core.prefetched[Self.item(0)], "repeat off: nothing after the last track")
        let modes = try core.apply(.setRepeat(.all))
        XCTAssertEqual(Self.events(modes), [.modes(PlaybackModes(repeat: .all))])
        XCTAssertNotNil(core.prefetched[Self.item(0)], "repeat all: the first track follows the last")
        XCTAssertEqual(core.follower, core.prefetched[Self.item(0)]?.id)

        _ = try core.apply(.setShuffle(true, seed: 42))
        let upcoming = try XCTUnwrap(core.transport.upcoming(in: core.queue))
        XCTAssertNotNil(core.prefetched[upcoming], "the neighbour is the shuffled order's next")
        XCTAssertEqual(core.follower, core.prefetched[upcoming]?.id)
        // An edit keeps the shuffle's order of the items that stay, and the current one current.
        let order = core.transport.order.ids(in: core.queue)
        let gone = try XCTUnwrap(order.first { $0 != core.transport.item })
        _ = try core.remove(.id(gone))
        XCTAssertEqual(core.transport.order.ids(in: core.queue), order.filter { $0 != gone })
        XCTAssertEqual(core.transport.item, Self.item(4))
        XCTAssertEqual(try core.apply(.setRepeat(.all)).filter { if case .notify = $0 { return true } else { return false } }, [],
                       "no change, no event")
    }

    func testStopDropsEverythingAndPauseOnlyCorks() throws {
        var core = playing()
        XCTAssertEqual(Self.work(try core.apply(.pause)), [.pauseOutput])
        XCTAssertEqual(Self.work(try core.apply(.resume)), [.resumeOutput])
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
        XCTAssertEqual(core.position, 0)
        XCTAssertTrue(core.downloads.isEmpty)
        XCTAssertNil(core.current)
    }

    func testAFailedDownloadOfTheCurrentTrackLetsTheNeighboursStartAndAFailedOneIsFetchedAgain() throws {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let window = core.handle(.downloadEnded(url: Self.url(0), complete: false))
        XCTAssertEqual(started(window).map(\.item), [Self.item(1)], "the neighbour does not wait for a download that has ended")
        // Seeking on the failed download fetches it again (another try may succeed).
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        let seek = try core.apply(.seek(toMs: 1_000))
        XCTAssertEqual(Array(seek.prefix(2)), [.cancelDownload(url: Self.url(0)), Self.download(0)])
    }

    func testVolumeAndMuteAreClampedToldAndKeptAcrossAnOutputReturn() {
        var core = playing()
        XCTAssertEqual(core.changeVolume(.set(140)), [], "clamped to 100, as it was: nothing")
        XCTAssertEqual(core.changeVolume(.by(-130)), [.setVolume(0, muted: false), .notify(.volume(0, muted: false))])
        XCTAssertEqual(core.changeVolume(.by(40)), [.setVolume(40, muted: false), .notify(.volume(40, muted: false))])
        XCTAssertEqual(core.mute(nil), [.setVolume(40, muted: true), .notify(.volume(40, muted: true))])
        XCTAssertEqual(core.mute(true), [], "no change, no event")
        XCTAssertEqual(core.changeVolume(nil), [])
        _ = core.handle(.outputLost("gone", heardMs: 0))
        XCTAssertTrue(core.handle(.outputBack).contains(.setVolume(40, muted: true)), "a new stream gets the level back")
    }

    func testEventsComeInTheOrderThingsHappen() throws {
        var core = PlayerCore()
        let replaced = core.replaceQueue(with: Self.tracks, play: true)
        XCTAssertEqual(Self.events(replaced), [.queue(length: 5, version: 1),
                                               .track(index: 0, id: 1, Self.tracks[0], loudness: core.loudnessReport(item: 1)),
                                               .state(.loading, index: 0, id: 1)])
        let ready = core.handle(.ready(core.current!.id, containerMs: nil))
        XCTAssertEqual(Self.events(ready), [.loudness(index: 0, core.loudnessReport(item: 1)!, id: 1), .state(.playing, index: 0, id: 1)],
                       "the provisional gain of a cold start is news")
        let id = core.current!.id
        XCTAssertEqual(Self.events(core.handle(.underrun(id))), [.buffering(true)])
        XCTAssertEqual(Self.events(core.handle(.underrun(id))), [], "said once")
        XCTAssertEqual(Self.events(core.handle(.refilled(id))), [.buffering(false)])
        let next = try core.apply(.next)
        XCTAssertEqual(Self.events(next), [.track(index: 1, id: 2, Self.tracks[1], loudness: core.loudnessReport(item: 2)),
                                           .state(.loading, index: 1, id: 2)])
        XCTAssertEqual(Self.events(try core.apply(.pause)), [],
                       "a pause while loading changes what will happen, not the state")
    }

    func testAColdStartPlaysAtOnceAtAProvisionalGainThatItsEstimateCorrectsSmoothly() {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let id = core.current!.id
        let start = core.handle(.ready(id, containerMs: nil))
        let unity = TrackGain(db: 0, basis: .default)
        XCTAssertEqual(Array(start.prefix(3)), [.setGain(id, unity, smoothly: true), .estimateLoudness(id), Self.play(id)],
                       "no wait for loudness: a provisional gain, faded in, and the first seconds measured")
        let loud = Loudness(integratedLUFS: -8, peakDB: -0.5, isWholeTrack: false)
        let corrected = core.handle(.estimated(id, loud))
        let gain = LoudnessNormalization().gain(for: loud)
        XCTAssertEqual(corrected.first, .setGain(id, gain, smoothly: true))
        XCTAssertEqual(core.current?.gain, gain)
        XCTAssertEqual(core.handle(.estimated(id, loud)), [], "once")

        // The whole-clip measurement arrives later: the heard track keeps its gain (no jump).
        _ = core.handle(.downloadEnded(url: Self.url(0), complete: true))
        let whole = Loudness(integratedLUFS: -9, peakDB: -0.5, isWholeTrack: true)
        let measured = core.handle(.measured(url: Self.url(0), whole))
        XCTAssertFalse(measured.contains { if case .setGain(id, _, _) = $0 { return true } else { return false } })
        XCTAssertEqual(core.current?.gain, gain)
        XCTAssertEqual(Self.events(measured), [.loudness(index: 0, core.loudnessReport(item: 1)!, id: 1)])
        XCTAssertEqual(core.recentGains, [LoudnessNormalization().gain(for: whole).db])

        // A seek keeps the track's gain.
        _ = try? core.apply(.seek(toMs: 5_000))
        XCTAssertEqual(core.current?.gain, gain)
    }

    func testAMeasuredTrackAndTheGaplessFollowerNeverWait() {
        var core = playing()
        let follower = core.follower!
        _ = core.handle(.parked(follower))
        // The follower was handed over at the default gain; its measurement arrives before it is heard.
        XCTAssertEqual(core.prefetched[Self.item(1)]?.gain, TrackGain(db: 0, basis: .default))
        _ = core.handle(.downloadEnded(url: Self.url(1), complete: true))
        let whole = Loudness(integratedLUFS: -10, peakDB: -3, isWholeTrack: true)
        let gain = LoudnessNormalization().gain(for: whole)
        XCTAssertTrue(core.handle(.measured(url: Self.url(1), whole)).contains(.setGain(follower, gain, smoothly: false)))
        let ended = core.handle(.drained(core.current!.id))
        XCTAssertFalse(ended.contains(.estimateLoudness(follower)), "measured: no estimate")
        XCTAssertEqual(core.current?.gain, gain)

        var off = PlayerCore(policy: { var p = PlayerCore.Policy(); p.normalization.mode = .off; return p }())
        _ = off.replaceQueue(with: Self.tracks, play: true)
        let id = off.current!.id
        XCTAssertEqual(Array(off.handle(.ready(id, containerMs: nil)).prefix(2)), [.setGain(id, .off, smoothly: false), Self.play(id)])
    }

    func testArtworkWindowFollowsTheCurrentTrackAndItsNeighbours() {
        let art = (0..<4).map { i in
            var track = Track(trackId: i, previewUrl: Self.url(i))
            track.artworkUrl100 = "https://example.com/\(i).jpg"
            return track
        }
        var core = PlayerCore()
        let effects = core.replaceQueue(with: art, play: true)
        XCTAssertTrue(effects.contains(.fetchArtwork(["https://example.com/0.jpg", "https://example.com/1.jpg"])))
        let arrived = core.handle(.artworkArrived(url: "https://example.com/0.jpg", path: "/cache/0.jpg"))
        XCTAssertEqual(Self.events(arrived), [.artwork(index: 0, path: "/cache/0.jpg", id: 1)])
        XCTAssertEqual(core.currentArtworkPath, "/cache/0.jpg")
        XCTAssertEqual(Self.events(core.handle(.artworkArrived(url: "https://example.com/0.jpg", path: "/cache/0.jpg"))), [],
                       "the same image again is told once (issue 55: `watch` printed one twice)")
        XCTAssertEqual(core.handle(.artworkArrived(url: "https://example.com/3.jpg", path: "/cache/3.jpg")), [],
                       "outside the window: nothing")
    }

    func testAutopageAsksForTheNextPageNearTheEndOnce() throws {
        var policy = PlayerCore.Policy()
        policy.autopage = true
        var core = PlayerCore(policy: policy)
        _ = try core.place(Self.tracks, at: nil, play: true, morePages: true)
        XCTAssertEqual(core.paging, .available)
        _ = core.handle(.ready(core.current!.id, containerMs: nil))
        let third = try core.play(.index(3))
        XCTAssertTrue(third.contains(.fetchNextPage), "within two tracks of the end")
        XCTAssertEqual(core.paging, .fetching)
        XCTAssertFalse(try core.apply(.next).contains(.fetchNextPage), "one call at a time")
        core.pageEnded(morePages: false)
        XCTAssertFalse(try core.apply(.prev).contains(.fetchNextPage), "no more pages")
        _ = try core.place(Self.tracks, at: nil, play: true, morePages: true)
        _ = core.clear()
        XCTAssertEqual(core.paging, .none, "clear forgets the search")
    }
}
