import PreviewCore
import XCTest

/// The verbs every front-end needs, as the core decides them: insert where asked (answering ids),
/// what plays next (`nextId`) under every mode, consume, single, and the changes since a version.
final class PlayerCoreVocabularyTests: XCTestCase {
    static let tracks = (0..<5).map { (i: Int) in Track(trackId: i, previewUrl: "https://example.com/\(i).m4a") }
    static func extra(_ i: Int) -> Track { Track(trackId: 100 + i, previewUrl: "https://example.com/x\(i).m4a") }
    static func events(_ effects: [PlayerCore.Effect]) -> [ControlEvent] {
        effects.compactMap { if case .notify(let event) = $0 { return event } else { return nil } }
    }

    /// A core playing queue item `item` of `count` tracks (items 1…count), its audio heard.
    private func playing(_ item: Int = 1, count: Int = 5) throws -> PlayerCore {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Array(Self.tracks.prefix(count)), play: true)
        if item != 1 { _ = try core.play(.id(item)) }
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        XCTAssertEqual(core.transport.state, .playing(item: item))
        return core
    }

    // MARK: Insert where asked

    func testInsertAtTheFrontTheMiddleTheEndAndNextIsOneChangeAnsweringTheIdsInOrder() throws {
        for (at, expectedIndex) in [(InsertPosition.index(0), 0), (.index(2), 2), (.end, 5), (.next, 2)] {
            var core = try playing(2)
            let version = core.queue.version
            let placement = try core.place([Self.extra(0), Self.extra(1)], at: at, play: false, morePages: nil)
            XCTAssertEqual(placement.ids, [6, 7], "\(at): new ids, in the order given")
            XCTAssertEqual(placement.firstIndex, expectedIndex, "\(at)")
            XCTAssertEqual(core.queue.position(ofID: 6), expectedIndex, "\(at)")
            XCTAssertEqual(core.queue.position(ofID: 7), expectedIndex + 1, "\(at)")
            XCTAssertEqual(core.queue.version, version + 1, "\(at): one version step")
            XCTAssertEqual(Self.events(placement.effects).filter { if case .queue = $0 { true } else { false } },
                           [.queue(length: 7, version: version + 1)], "\(at): one queue event")
            XCTAssertEqual(core.transport.state, .playing(item: 2), "\(at): the current track plays on")
        }
    }

    func testInsertedNextPlaysNextInQueueOrderAndInAShuffledOrder() throws {
        for shuffled in [false, true] {
            var core = try playing(2)
            if shuffled { _ = try core.apply(.setShuffle(true, seed: 99)) }
            let placement = try core.place([Self.extra(0), Self.extra(1)], at: .next, play: false, morePages: nil)
            XCTAssertEqual(core.transport.following(in: core.queue), placement.ids[0], "shuffle \(shuffled)")
            _ = try core.apply(.next)
            XCTAssertEqual(core.transport.item, placement.ids[0], "shuffle \(shuffled): next plays the first inserted")
            XCTAssertEqual(core.transport.following(in: core.queue), placement.ids[1], "shuffle \(shuffled): then the second")
        }
    }

    func testInsertNextWhenStoppedGoesAfterTheItemStatusNamesAndWithNoneToTheFront() throws {
        var empty = PlayerCore()
        XCTAssertEqual(try empty.place([Self.extra(9)], at: .next, play: false, morePages: nil).firstIndex, 0)
        var core = PlayerCore()
        _ = core.replaceQueue(with: Array(Self.tracks.prefix(3)), play: false)   // stopped at item 1
        let placement = try core.place([Self.extra(0)], at: .next, play: false, morePages: nil)
        XCTAssertEqual(placement.firstIndex, 1)
        let version = core.queue.version
        XCTAssertThrowsError(try core.place([Self.extra(1)], at: .index(5), play: false, morePages: nil)) {
            XCTAssertEqual(($0 as? ControlError)?.code, .badArgument)
        }
        XCTAssertEqual(core.queue.version, version, "a refused insert changes nothing")
    }

    func testGivenTracksPassThePlayableFilter() throws {
        var core = try playing()
        let tracks = [Self.extra(0), Track(trackId: 7, trackName: "no preview"), Track(trackId: 8, previewUrl: "ftp://example.com/8.m4a")]
        let placement = try core.place(tracks, at: .end, play: false, morePages: nil)
        XCTAssertEqual(placement.ids.count, 1)
        XCTAssertEqual(placement.notQueued.map(\.result), [1, 2])
    }

    // MARK: What plays next

    /// `nextId` for every combination of repeat, single and consume, at the first and the last
    /// item, in queue order and shuffled; and it is what then plays: at the track's end, or on
    /// `next` when single stops playback there.
    func testNextIdUnderEveryModeIsWhatPlays() throws {
        for shuffle in [false, true] {
            for repeatMode in RepeatMode.allCases {
                for single in SingleMode.allCases {
                    for consume in [false, true] {
                        for atEnd in [false, true] {
                            try checkNext(shuffle: shuffle, repeat: repeatMode, single: single, consume: consume, atEnd: atEnd)
                        }
                    }
                }
            }
        }
    }

    private func checkNext(shuffle: Bool, repeat repeatMode: RepeatMode, single: SingleMode, consume: Bool, atEnd: Bool) throws {
        let label = "shuffle \(shuffle), repeat \(repeatMode), single \(single), consume \(consume), at the \(atEnd ? "last" : "first")"
        var core = try playing(1, count: 3)
        if shuffle { _ = try core.apply(.setShuffle(true, seed: 7)) }
        let order = core.transport.order.ids(in: core.queue)
        let current = atEnd ? order.last! : order.first!
        if current != 1 {
            _ = try core.play(.id(current))
            _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        }
        _ = try core.apply(.setRepeat(repeatMode))
        _ = try core.apply(.setSingle(single))
        _ = try core.apply(.setConsume(consume))

        // The rule, written out: the same track again under repeat one (or single with repeat),
        // unless consume took it; else the next in play order, wrapping under repeat all.
        let again = repeatMode == .one || (single != .off && repeatMode != .off)
        let expected: Int? = again && !consume ? current
            : atEnd ? (repeatMode == .all ? order.first : nil) : order[1]
        XCTAssertEqual(core.transport.following(in: core.queue), expected, label)

        let stopsAtEnd = single != .off && !(again && !consume)
        if stopsAtEnd {
            _ = try core.apply(.next)
        } else {
            _ = core.handle(.drained(core.current!.id))
        }
        if let expected {
            XCTAssertEqual(core.transport.item, expected, label)
            XCTAssertTrue(core.transport.isActive, label)
        } else {
            XCTAssertEqual(core.transport.playbackState, .stopped, label)
        }
        XCTAssertEqual(core.queue.position(ofID: current) == nil, consume && expected != current, "\(label): consumed")
    }

    // MARK: Consume

    func testConsumeRemovesThePlayedItemWhicheverWayItWasLeftInOneVersionStep() throws {
        let ways: [(String, (inout PlayerCore) throws -> [PlayerCore.Effect])] = [
            ("next", { try $0.apply(.next) }),
            ("prev", { try $0.apply(.prev) }),
            ("play another", { try $0.play(.id(5)) }),
            ("heard to its end", { $0.handle(.drained($0.current!.id)) }),
        ]
        for (way, leave) in ways {
            var core = try playing(3)
            _ = try core.apply(.setConsume(true))
            let version = core.queue.version
            let effects = try leave(&core)
            XCTAssertNil(core.queue.position(ofID: 3), "\(way): the played item left the queue")
            XCTAssertEqual(core.queue.count, 4, way)
            XCTAssertEqual(core.queue.version, version + 1, "\(way): one version step")
            XCTAssertTrue(Self.events(effects).contains(.queue(length: 4, version: version + 1)), way)
            XCTAssertTrue(core.transport.isActive, way)
        }
    }

    func testConsumeKeepsWhatWasNotPlayedAndTheLastTrackLeavesWhenPlaybackStops() throws {
        var core = try playing(3)
        _ = try core.apply(.setConsume(true))
        _ = try core.seek(.absolute(ms: 5_000), heardMs: 0)
        _ = try core.apply(.stop)
        XCTAssertEqual(core.queue.count, 5, "a seek and a stop consume nothing")
        _ = try core.play(.id(3))
        _ = core.handle(.failed(core.current!.id, "broken", afterMs: 0))
        XCTAssertNotNil(core.queue.position(ofID: 3), "a failed track never played: it stays, marked")
        var last = try playing(5)
        _ = try last.apply(.setConsume(true))
        _ = last.handle(.drained(last.current!.id))
        XCTAssertEqual(last.queue.ids, [1, 2, 3, 4], "the last track played out: consumed")
        XCTAssertEqual(last.transport.state, .stopped(item: nil))
    }

    // MARK: Single

    func testSingleStopsAtTheTrackEndRepeatsWithRepeatAndOneshotTurnsItselfOff() throws {
        var on = try playing(2)
        _ = on.handle(.downloadEnded(url: "https://example.com/1.m4a", complete: true))
        _ = try on.apply(.setSingle(.on))
        XCTAssertNil(on.follower, "nothing follows gaplessly: playback stops there")
        XCTAssertNotNil(on.prefetched[3], "but next is prefetched: a skip is still at once")
        _ = on.handle(.drained(on.current!.id))
        XCTAssertEqual(on.transport.state, .stopped(item: 2))
        XCTAssertEqual(on.transport.single, .on, "single stays on")

        var again = try playing(2)
        _ = try again.apply(.setRepeat(.all))
        _ = try again.apply(.setSingle(.on))
        _ = again.handle(.drained(again.current!.id))
        XCTAssertEqual(again.transport.state, .loading(item: 2, autoplay: true), "with repeat: the same track again")

        var once = try playing(2)
        _ = try once.apply(.setSingle(.oneshot))
        let ended = once.handle(.drained(once.current!.id))
        XCTAssertEqual(once.transport.state, .stopped(item: 2))
        XCTAssertEqual(once.transport.single, .off, "oneshot: once")
        XCTAssertTrue(Self.events(ended).contains(.modes(PlaybackModes(single: .off))), "the change is told")
        _ = try once.play(nil)
        _ = once.handle(.ready(once.current!.id, containerMs: 30_000))
        _ = once.handle(.drained(once.current!.id))
        XCTAssertEqual(once.transport.item, 3, "then playback goes on as usual")
    }

    func testModesAreToldOnceEach() throws {
        var core = try playing()
        XCTAssertEqual(Self.events(try core.apply(.setConsume(true))), [.modes(PlaybackModes(consume: true))])
        XCTAssertEqual(Self.events(try core.apply(.setSingle(.oneshot))), [.modes(PlaybackModes(single: .oneshot, consume: true))])
        XCTAssertEqual(Self.events(try core.apply(.setSingle(.oneshot))), [], "no change, no event")
    }

    // MARK: Cue

    func testPlayPausedAtAPositionLoadsCorkedThereWithNothingHeard() throws {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Array(Self.tracks.prefix(3)), play: false)
        let cued = try core.play(.id(2), startMs: 4_000, paused: true)
        XCTAssertEqual(core.transport.state, .loading(item: 2, autoplay: false))
        XCTAssertEqual(core.current?.startMs, 4_000)
        XCTAssertFalse(cued.contains { if case .play = $0 { true } else { false } }, "nothing plays before its audio is there")
        let ready = core.handle(.ready(core.current!.id, containerMs: 30_000))
        XCTAssertTrue(ready.contains(.play(core.current!.id, paused: true, title: nil, artist: nil)), "handed to the output corked")
        XCTAssertEqual(core.transport.state, .paused(item: 2))
    }

    func testAnExactShuffledOrderIsTakenOnlyWhenItNamesEveryItemOnce() throws {
        var core = try playing(1, count: 4)
        _ = try core.apply(.setShuffleOrder([3, 1, 4, 2]))
        XCTAssertEqual(core.transport.order.ids(in: core.queue), [3, 1, 4, 2])
        XCTAssertEqual(core.transport.following(in: core.queue), 4)
        XCTAssertThrowsError(try core.apply(.setShuffleOrder([1, 2, 3]))) { XCTAssertEqual(($0 as? ControlError)?.code, .rejected) }
        XCTAssertThrowsError(try core.apply(.setShuffleOrder([1, 1, 2, 3])))
    }

    // MARK: Shuffling the queue itself

    func testShufflingTheQueueReordersItsItemsInOneChangeAndTheCurrentPlaysOn() throws {
        var core = try playing(2)
        let version = core.queue.version
        _ = try core.shuffleQueue(nil, seed: 42)
        XCTAssertEqual(core.queue.version, version + 1)
        XCTAssertEqual(Set(core.queue.ids), [1, 2, 3, 4, 5])
        XCTAssertNotEqual(core.queue.ids, [1, 2, 3, 4, 5])
        XCTAssertEqual(core.transport.state, .playing(item: 2), "the current track plays on wherever it went")
        let head = Array(core.queue.ids.prefix(2))
        _ = try core.shuffleQueue(2..<5, seed: 7)
        XCTAssertEqual(Array(core.queue.ids.prefix(2)), head, "outside the range nothing moves")
        XCTAssertThrowsError(try core.shuffleQueue(3..<9, seed: 1)) { XCTAssertEqual(($0 as? ControlError)?.code, .badArgument) }
    }

    // MARK: Changes since a version

    func testChangesSinceAVersionAfterAddMoveRemoveAndClear() throws {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Array(Self.tracks.prefix(4)), play: false)   // items 1–4
        let start = core.queue.version
        XCTAssertEqual(core.queue.changes(since: start).count, 0, "nothing changed since now")
        XCTAssertEqual(core.queue.changes(since: 0).map(\.item.id), [1, 2, 3, 4], "everything since before it existed")

        _ = try core.place([Self.extra(0)], at: .index(1), play: false, morePages: nil)   // 1 5 2 3 4
        let added = core.queue.changes(since: start)
        XCTAssertEqual(added.map(\.item.id), [5, 2, 3, 4], "the new item and those it pushed down")
        XCTAssertEqual(added.map(\.position), [1, 2, 3, 4])

        let beforeMove = core.queue.version
        _ = try core.move(.id(4), to: .index(0))   // 4 1 5 2 3
        XCTAssertEqual(core.queue.changes(since: beforeMove).map(\.item.id), [4, 1, 5, 2, 3])
        let beforeSwap = core.queue.version
        _ = try core.move(.id(2), to: .index(4))   // 4 1 5 3 2
        XCTAssertEqual(core.queue.changes(since: beforeSwap).map(\.item.id), [3, 2], "only what moved")

        let beforeRemove = core.queue.version
        _ = try core.remove(.id(5))   // 4 1 3 2
        let removed = QueueChangesReport(core.queue, since: beforeRemove)
        XCTAssertEqual(removed.length, 4, "a removal shows in the length")
        XCTAssertEqual(removed.items.map(\.item.id), [3, 2], "and in the items that moved up")
        XCTAssertEqual(removed.items.map(\.index), [2, 3])

        let beforeClear = core.queue.version
        _ = core.clear()
        let cleared = QueueChangesReport(core.queue, since: beforeClear)
        XCTAssertEqual(cleared.length, 0)
        XCTAssertEqual(cleared.version, beforeClear + 1)
        XCTAssertTrue(cleared.items.isEmpty)
        XCTAssertEqual(QueueChangesReport(core.queue, since: 10_000).items.count, 0, "a version from the future: all there is")
    }

    func testAFailedItemCountsAsChanged() throws {
        var core = try playing(1)
        let version = core.queue.version
        _ = core.handle(.failed(core.current!.id, "broken", afterMs: 0))
        XCTAssertEqual(core.queue.changes(since: version).map(\.item.id), [1])
    }
}
