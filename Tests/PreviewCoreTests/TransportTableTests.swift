import PreviewCore
import XCTest

/// Every state × every input of `Transport`, against a written table of the next state and actions.
///
/// The transport names queue items by id. `PlayQueue(tracks:)` gives ids 1, 2, 3, … in order, so to
/// keep the table readable its helpers take an item's index in `queue` as built and name the item
/// with id index + 1: `L(0, true)` is `.loading(item: 1, autoplay: true)`, `load(1)` is
/// `.load(item: 2, startMs: 0)`, and `.play(index: 1)` (defined below, test-only) is `.play(item: 2)`.
/// An item keeps its id wherever an edit moves it, so after an edit the helper's number is where
/// the item was built, not where it is now.
final class TransportTableTests: XCTestCase {
    /// Queue: 0 and 1 playable, 2 without a preview, 3 playable (ids 1, 2, 3, 4).
    let queue = PlayQueue(tracks: [
        Track(trackId: 1, trackName: "zero", previewUrl: "https://example.com/0.m4a"),
        Track(trackId: 2, trackName: "one", previewUrl: "https://example.com/1.m4a"),
        Track(trackId: 3, trackName: "two"),
        Track(trackId: 4, trackName: "three", previewUrl: "https://example.com/3.m4a"),
    ])

    /// `queue` with items 0 and 1 swapped (ids 2, 1, 3, 4): the queue the `queueEdited` rows are given.
    var swapped: PlayQueue {
        var q = queue
        q.move(id: 1, to: 1)
        return q
    }

    typealias S = Transport.State
    typealias A = Transport.Action
    /// The id of the item built at `index`.
    static func id(_ index: Int) -> Int { index + 1 }
    static func L(_ i: Int, _ auto: Bool) -> S { .loading(item: id(i), autoplay: auto) }
    static func P(_ i: Int) -> S { .playing(item: id(i)) }
    static func Z(_ i: Int) -> S { .paused(item: id(i)) }
    static func stopped(at i: Int?) -> S { .stopped(item: i.map(id)) }
    static func failed(_ i: Int, _ message: String) -> A { .markFailed(item: id(i), message: message) }

    /// How to reach each starting state from a new transport.
    let setups = TransportSetups.inputs(lastItem: 4)

    enum Outcome: Equatable {
        case to(S, [A])
        case rejected(Transport.Rejection)
    }

    func testEveryStateAndInputFollowsTheTable() throws {
        let load = { (i: Int) in A.load(item: Self.id(i), startMs: 0) }
        let seekLoad = { (i: Int) in A.load(item: Self.id(i), startMs: 1500) }
        let table: [(String, Transport.Input, Outcome)] = [
            // play(nil)
            ("idle", .play(index: nil), .to(Self.L(0, true), [load(0)])),
            ("loading", .play(index: nil), .to(Self.L(0, true), [])),
            ("loadingPaused", .play(index: nil), .to(Self.L(0, true), [])),
            ("playing", .play(index: nil), .to(Self.P(0), [])),
            ("paused", .play(index: nil), .to(Self.P(0), [.resumeOutput])),
            ("stopped", .play(index: nil), .to(Self.L(0, true), [load(0)])),
            ("playingLast", .play(index: nil), .to(Self.P(3), [])),
            // play(1)
            ("idle", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            ("loading", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            ("loadingPaused", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            ("playing", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            ("paused", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            ("stopped", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            ("playingLast", .play(index: 1), .to(Self.L(1, true), [load(1)])),
            // pause
            ("idle", .pause, .rejected(.nothingToControl)),
            ("loading", .pause, .to(Self.L(0, false), [])),
            ("loadingPaused", .pause, .to(Self.L(0, false), [])),
            ("playing", .pause, .to(Self.Z(0), [.pauseOutput])),
            ("paused", .pause, .to(Self.Z(0), [])),
            ("stopped", .pause, .rejected(.nothingToControl)),
            ("playingLast", .pause, .to(Self.Z(3), [.pauseOutput])),
            // resume
            ("idle", .resume, .to(Self.L(0, true), [load(0)])),
            ("loading", .resume, .to(Self.L(0, true), [])),
            ("loadingPaused", .resume, .to(Self.L(0, true), [])),
            ("playing", .resume, .to(Self.P(0), [])),
            ("paused", .resume, .to(Self.P(0), [.resumeOutput])),
            ("stopped", .resume, .to(Self.L(0, true), [load(0)])),
            ("playingLast", .resume, .to(Self.P(3), [])),
            // toggle
            ("idle", .toggle, .to(Self.L(0, true), [load(0)])),
            ("loading", .toggle, .to(Self.L(0, false), [])),
            ("loadingPaused", .toggle, .to(Self.L(0, true), [])),
            ("playing", .toggle, .to(Self.Z(0), [.pauseOutput])),
            ("paused", .toggle, .to(Self.P(0), [.resumeOutput])),
            ("stopped", .toggle, .to(Self.L(0, true), [load(0)])),
            ("playingLast", .toggle, .to(Self.Z(3), [.pauseOutput])),
            // stop
            ("idle", .stop, .to(.idle, [])),
            ("loading", .stop, .to(Self.stopped(at: 0), [.stopOutput])),
            ("loadingPaused", .stop, .to(Self.stopped(at: 0), [.stopOutput])),
            ("playing", .stop, .to(Self.stopped(at: 0), [.stopOutput])),
            ("paused", .stop, .to(Self.stopped(at: 0), [.stopOutput])),
            ("stopped", .stop, .to(Self.stopped(at: 0), [])),
            ("playingLast", .stop, .to(Self.stopped(at: 3), [.stopOutput])),
            // next: skips item 2 (no preview); at the end, stops
            ("idle", .next, .to(Self.L(0, true), [load(0)])),
            ("loading", .next, .to(Self.L(1, true), [load(1)])),
            ("loadingPaused", .next, .to(Self.L(1, true), [load(1)])),
            ("playing", .next, .to(Self.L(1, true), [load(1)])),
            ("paused", .next, .to(Self.L(1, true), [load(1)])),
            ("stopped", .next, .to(Self.L(1, true), [load(1)])),
            ("playingLast", .next, .to(Self.stopped(at: 3), [.stopOutput])),
            // prev: always the previous playable track; at the first, that track again
            ("idle", .prev, .to(Self.L(0, true), [load(0)])),
            ("loading", .prev, .to(Self.L(0, true), [load(0)])),
            ("loadingPaused", .prev, .to(Self.L(0, true), [load(0)])),
            ("playing", .prev, .to(Self.L(0, true), [load(0)])),
            ("paused", .prev, .to(Self.L(0, true), [load(0)])),
            ("stopped", .prev, .to(Self.L(0, true), [load(0)])),
            ("playingLast", .prev, .to(Self.L(1, true), [load(1)])),
            // seek: the same track decoded again from the new position, keeping play/pause
            ("idle", .seek(toMs: 1500), .rejected(.nothingToControl)),
            ("loading", .seek(toMs: 1500), .to(Self.L(0, true), [seekLoad(0)])),
            ("loadingPaused", .seek(toMs: 1500), .to(Self.L(0, false), [seekLoad(0)])),
            ("playing", .seek(toMs: 1500), .to(Self.L(0, true), [seekLoad(0)])),
            ("paused", .seek(toMs: 1500), .to(Self.L(0, false), [seekLoad(0)])),
            ("stopped", .seek(toMs: 1500), .rejected(.nothingToControl)),
            ("playingLast", .seek(toMs: 1500), .to(Self.L(3, true), [seekLoad(3)])),
            // queueReplaced: plays the new queue's first playable track. These rows were
            // queueReplaced(start: 1) and expected item 1 (index 1); `start:` is gone and a replaced
            // queue always starts at its first playable item, here item 0 (id 1). See also
            // testAReplacedQueueStartsAtItsFirstPlayableTrack.
            ("idle", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            ("loading", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            ("loadingPaused", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            ("playing", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            ("paused", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            ("stopped", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            ("playingLast", .queueReplaced(), .to(Self.L(0, true), [load(0)])),
            // queueReplaced(play: false): wait, stopped at the first playable track. Was
            // queueReplaced(start: 1, play: false) → stopped at index 1; without `start:` it is
            // the queue's first playable item, item 0 (id 1).
            ("idle", .queueReplaced(play: false), .to(Self.stopped(at: 0), [])),
            ("loading", .queueReplaced(play: false), .to(Self.stopped(at: 0), [.stopOutput])),
            ("loadingPaused", .queueReplaced(play: false), .to(Self.stopped(at: 0), [.stopOutput])),
            ("playing", .queueReplaced(play: false), .to(Self.stopped(at: 0), [.stopOutput])),
            ("paused", .queueReplaced(play: false), .to(Self.stopped(at: 0), [.stopOutput])),
            ("stopped", .queueReplaced(play: false), .to(Self.stopped(at: 0), [])),
            ("playingLast", .queueReplaced(play: false), .to(Self.stopped(at: 0), [.stopOutput])),
            // queueEdited, given `swapped` (items 0 and 1 swapped, ids 2, 1, 3, 4): nothing reloads.
            // The old rows moved the current index with its item (0 → 1); the state now names the
            // item by id, which the move does not change, so every state stays exactly as it was.
            ("idle", .queueEdited(successor: nil), .to(.idle, [])),
            ("loading", .queueEdited(successor: nil), .to(Self.L(0, true), [])),   // was L(1, …): item 1 is now at position 1
            ("loadingPaused", .queueEdited(successor: nil), .to(Self.L(0, false), [])),   // was L(1, …), as above
            ("playing", .queueEdited(successor: nil), .to(Self.P(0), [])),   // was P(1), as above
            ("paused", .queueEdited(successor: nil), .to(Self.Z(0), [])),   // was Z(1), as above
            ("stopped", .queueEdited(successor: nil), .to(Self.stopped(at: 0), [])),   // was stopped(index: 1), as above
            ("playingLast", .queueEdited(successor: nil), .to(Self.P(3), [])),
            // trackReady (of the current load: PlayerCore passes on no other)
            ("idle", .trackReady, .to(.idle, [])),
            ("loading", .trackReady, .to(Self.P(0), [.startOutput(paused: false)])),
            ("loadingPaused", .trackReady, .to(Self.Z(0), [.startOutput(paused: true)])),
            ("playing", .trackReady, .to(Self.P(0), [])),
            ("paused", .trackReady, .to(Self.Z(0), [])),
            ("stopped", .trackReady, .to(Self.stopped(at: 0), [])),
            ("playingLast", .trackReady, .to(Self.P(3), [])),
            // (The rows "a stale event — a load that is no longer current — changes nothing" are
            // gone: reports carry no request id any more and PlayerCore drops those of old loads.)
            // trackFailed: mark it, move to the next playable one
            ("idle", .trackFailed("x"), .to(.idle, [])),
            ("loading", .trackFailed("x"), .to(Self.L(1, true), [Self.failed(0, "x"), load(1)])),
            ("loadingPaused", .trackFailed("x"), .to(Self.L(1, true), [Self.failed(0, "x"), load(1)])),
            ("playing", .trackFailed("x"), .to(Self.L(1, true), [Self.failed(0, "x"), load(1)])),
            ("paused", .trackFailed("x"), .to(Self.L(1, true), [Self.failed(0, "x"), load(1)])),
            ("stopped", .trackFailed("x"), .to(Self.stopped(at: 0), [])),
            ("playingLast", .trackFailed("x"), .to(Self.stopped(at: 3), [Self.failed(3, "x"), .stopOutput])),
            // trackEnded: only a playing track ends
            ("idle", .trackEnded, .to(.idle, [])),
            ("loading", .trackEnded, .to(Self.L(0, true), [])),
            ("loadingPaused", .trackEnded, .to(Self.L(0, false), [])),
            ("playing", .trackEnded, .to(Self.L(1, true), [load(1)])),
            ("paused", .trackEnded, .to(Self.Z(0), [])),
            ("stopped", .trackEnded, .to(Self.stopped(at: 0), [])),
            ("playingLast", .trackEnded, .to(Self.stopped(at: 3), [.stopOutput])),
        ]
        let rejectedEverywhere: [(Transport.Input, Transport.Rejection)] = [
            (.play(index: 2), .notPlayable(position: 2)),   // item 3, at position 2
            (.play(index: 9), .noSuchItem(10)),   // was .noSuchIndex(9, count: 4): now the id asked for, 10
        ]

        var covered = Set<String>()
        for (setup, input, expected) in table {
            var transport = try start(setup)
            let before = transport.state
            let outcome: Outcome
            do {
                let actions = try transport.handle(input, queue: queueGiven(input))
                outcome = .to(transport.state, actions)
            } catch {
                XCTAssertEqual(transport.state, before, "a rejected input must not change the state")
                outcome = .rejected(error)
            }
            XCTAssertEqual(outcome, expected, "\(setup) + \(input)")
            covered.insert(setup)
        }
        for setup in setups.keys {
            for (input, rejection) in rejectedEverywhere {
                var transport = try start(setup)
                let before = transport.state
                XCTAssertThrowsError(try transport.handle(input, queue: queue), "\(setup) + \(input)") {
                    XCTAssertEqual($0 as? Transport.Rejection, rejection)
                }
                XCTAssertEqual(transport.state, before, "a rejected input must not change the state")
            }
        }
        XCTAssertEqual(covered, Set(setups.keys))
        // 15 kinds: the old table's 16th, stale reports, is PlayerCore's business now.
        XCTAssertEqual(table.count, 7 * 15, "one row per state for each of the 15 input kinds in the table")
    }

    /// The queue an input of the table is given: `swapped` for an edit, else `queue`.
    private func queueGiven(_ input: Transport.Input) -> PlayQueue {
        if case .queueEdited = input { return swapped }
        return queue
    }

    func testRemovingTheCurrentTrackPlaysTheOneThatTookItsPlace() throws {
        var playing = try start("playing")   // playing item 1
        var shorter = queue
        shorter.remove(id: 1)
        XCTAssertEqual(shorter.ids, [2, 3, 4])
        XCTAssertEqual(try playing.handle(.queueEdited(successor: 2), queue: shorter), [.load(item: 2, startMs: 0)])
        XCTAssertEqual(playing.state, .loading(item: 2, autoplay: true))

        var paused = try start("paused")
        XCTAssertEqual(try paused.handle(.queueEdited(successor: 2), queue: shorter), [.load(item: 2, startMs: 0)])
        XCTAssertEqual(paused.state, .loading(item: 2, autoplay: false), "a paused queue stays paused on the new track")

        // The successor has no preview: the first playable item after it plays (item 4).
        var second = Transport()
        _ = try second.handle(.play(item: 2), queue: queue)
        var withoutSecond = queue
        withoutSecond.remove(id: 2)
        XCTAssertEqual(try second.handle(.queueEdited(successor: 3), queue: withoutSecond), [.load(item: 4, startMs: 0)])
        XCTAssertEqual(second.state, .loading(item: 4, autoplay: true))

        var last = try start("playingLast")  // playing item 4, the last
        var cut = queue
        cut.remove(id: 4)
        XCTAssertEqual(try last.handle(.queueEdited(successor: nil), queue: cut), [.stopOutput])
        XCTAssertEqual(last.state, .stopped(item: nil))

        var cleared = try start("playing")
        var empty = queue
        empty.removeAll()
        XCTAssertEqual(try cleared.handle(.queueEdited(successor: nil), queue: empty), [.stopOutput])
        XCTAssertEqual(cleared.state, .idle)

        // Removing an item before the current one: the old test expected the current index to shift
        // (3 → 2, .playing(index: 2)); ids do not shift, so the state stays .playing(item: 4).
        var earlier = try start("playingLast")
        var before = queue
        before.remove(id: 2)
        XCTAssertEqual(try earlier.handle(.queueEdited(successor: nil), queue: before), [])
        XCTAssertEqual(earlier.state, .playing(item: 4))
    }

    func testMovingKeepsAShuffledOrderAndTheQueueConsistent() throws {
        var q = queue
        q.move(id: 4, to: 0)   // was move(from: 3, to: 0), which returned the map [1, 2, 3, 0]
        XCTAssertEqual(q.ids, [4, 1, 2, 3])
        XCTAssertEqual(q.items.map(\.track.trackId), [4, 1, 2, 3])
        let shuffled = PlayOrder.shuffled(queue, first: 1, seed: 7)
        var moved = shuffled
        moved.sync(with: q, seed: 1)
        XCTAssertEqual(moved, shuffled, "a move changes no id, so the shuffle stays as it was")
        // Removing the first item (id 1). The old test remapped the shuffle of indices with
        // [nil, 0, 1, 2] and expected every other index shifted down by one; ids do not shift,
        // so the shuffle is the old one without id 1.
        var shorter = queue
        shorter.remove(id: 1)
        var synced = shuffled
        synced.sync(with: shorter, seed: 1)
        XCTAssertEqual(Set(synced.ids(in: shorter)), [2, 3, 4])
        XCTAssertEqual(synced.shuffle, shuffled.shuffle?.filter { $0 != 1 })
    }

    /// Replaces the rows' old `queueReplaced(start:)`: a new queue (new ids) starts at its first
    /// playable item, skipping one without a preview, or waits there with `play: false`.
    func testAReplacedQueueStartsAtItsFirstPlayableTrack() throws {
        var replaced = queue
        replaced.replaceAll(with: [queue.items[2].track, queue.items[3].track])   // no preview, then playable
        XCTAssertEqual(replaced.ids, [5, 6])
        var playing = try start("playing")
        XCTAssertEqual(try playing.handle(.queueReplaced(), queue: replaced), [.load(item: 6, startMs: 0)])
        XCTAssertEqual(playing.state, .loading(item: 6, autoplay: true))
        var waiting = try start("playing")
        XCTAssertEqual(try waiting.handle(.queueReplaced(play: false), queue: replaced), [.stopOutput])
        XCTAssertEqual(waiting.state, .stopped(item: 6))
    }

    func testEmptyQueue() throws {
        var transport = Transport()
        let empty = PlayQueue()
        XCTAssertThrowsError(try transport.handle(.play(item: nil), queue: empty))
        XCTAssertThrowsError(try transport.handle(.next, queue: empty))
        XCTAssertThrowsError(try transport.handle(.prev, queue: empty))
        XCTAssertEqual(try transport.handle(.queueReplaced(), queue: empty), [])
        XCTAssertEqual(transport.state, .idle)
    }

    func testClientFacingStateAndItem() throws {
        var transport = try start("loadingPaused")
        XCTAssertEqual(transport.playbackState, .loading)
        XCTAssertEqual(transport.item, 1)   // was index 0
        transport = try start("paused")
        XCTAssertEqual(transport.playbackState, .paused)
        XCTAssertTrue(transport.isActive)
        transport = try start("stopped")
        XCTAssertEqual(transport.playbackState, .stopped)
        XCTAssertFalse(transport.isActive)   // was currentRequest == nil
    }

    private func start(_ name: String) throws -> Transport {
        var transport = Transport()
        for input in setups[name]! { _ = try transport.handle(input, queue: queue) }
        return transport
    }
}

extension Transport.Input {
    /// Test-only: play the item built at `index` of a `PlayQueue(tracks:)` queue (id index + 1),
    /// or with nil, `.play(item: nil)`; keeps the table's rows in the old index terms.
    fileprivate static func play(index: Int?) -> Self { .play(item: index.map { $0 + 1 }) }
}
