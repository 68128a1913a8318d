import PreviewCore
import XCTest

/// Every state × every input of `Transport`, against a written table of the next state and actions.
final class TransportTableTests: XCTestCase {
    /// Queue: 0 and 1 playable, 2 without a preview, 3 playable.
    let queue = PlayQueue(tracks: [
        Track(trackId: 1, trackName: "zero", previewUrl: "https://example.com/0.m4a"),
        Track(trackId: 2, trackName: "one", previewUrl: "https://example.com/1.m4a"),
        Track(trackId: 3, trackName: "two"),
        Track(trackId: 4, trackName: "three", previewUrl: "https://example.com/3.m4a"),
    ])

    typealias S = Transport.State
    typealias A = Transport.Action
    static func r(_ n: UInt64) -> RequestID { RequestID(n) }
    static func L(_ i: Int, _ n: UInt64, _ auto: Bool) -> S { .loading(index: i, request: r(n), autoplay: auto) }
    static func P(_ i: Int, _ n: UInt64) -> S { .playing(index: i, request: r(n)) }
    static func Z(_ i: Int, _ n: UInt64) -> S { .paused(index: i, request: r(n)) }

    /// How to reach each starting state from a new transport.
    let setups = TransportSetups.inputs(last: 3)

    enum Outcome: Equatable {
        case to(S, [A])
        case rejected(Transport.Rejection)
    }

    func testEveryStateAndInputFollowsTheTable() throws {
        let load = { (i: Int, n: UInt64) in A.load(index: i, request: Self.r(n), startMs: 0) }
        let seekLoad = { (i: Int, n: UInt64) in A.load(index: i, request: Self.r(n), startMs: 1500) }
        let table: [(String, Transport.Input, Outcome)] = [
            // play(nil)
            ("idle", .play(index: nil), .to(Self.L(0, 1, true), [load(0, 1)])),
            ("loading", .play(index: nil), .to(Self.L(0, 1, true), [])),
            ("loadingPaused", .play(index: nil), .to(Self.L(0, 1, true), [])),
            ("playing", .play(index: nil), .to(Self.P(0, 1), [])),
            ("paused", .play(index: nil), .to(Self.P(0, 1), [.resumeOutput])),
            ("stopped", .play(index: nil), .to(Self.L(0, 2, true), [load(0, 2)])),
            ("playingLast", .play(index: nil), .to(Self.P(3, 1), [])),
            // play(1)
            ("idle", .play(index: 1), .to(Self.L(1, 1, true), [load(1, 1)])),
            ("loading", .play(index: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("loadingPaused", .play(index: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("playing", .play(index: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("paused", .play(index: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("stopped", .play(index: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("playingLast", .play(index: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            // pause
            ("idle", .pause, .rejected(.nothingToControl)),
            ("loading", .pause, .to(Self.L(0, 1, false), [])),
            ("loadingPaused", .pause, .to(Self.L(0, 1, false), [])),
            ("playing", .pause, .to(Self.Z(0, 1), [.pauseOutput])),
            ("paused", .pause, .to(Self.Z(0, 1), [])),
            ("stopped", .pause, .rejected(.nothingToControl)),
            ("playingLast", .pause, .to(Self.Z(3, 1), [.pauseOutput])),
            // resume
            ("idle", .resume, .to(Self.L(0, 1, true), [load(0, 1)])),
            ("loading", .resume, .to(Self.L(0, 1, true), [])),
            ("loadingPaused", .resume, .to(Self.L(0, 1, true), [])),
            ("playing", .resume, .to(Self.P(0, 1), [])),
            ("paused", .resume, .to(Self.P(0, 1), [.resumeOutput])),
            ("stopped", .resume, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("playingLast", .resume, .to(Self.P(3, 1), [])),
            // toggle
            ("idle", .toggle, .to(Self.L(0, 1, true), [load(0, 1)])),
            ("loading", .toggle, .to(Self.L(0, 1, false), [])),
            ("loadingPaused", .toggle, .to(Self.L(0, 1, true), [])),
            ("playing", .toggle, .to(Self.Z(0, 1), [.pauseOutput])),
            ("paused", .toggle, .to(Self.P(0, 1), [.resumeOutput])),
            ("stopped", .toggle, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("playingLast", .toggle, .to(Self.Z(3, 1), [.pauseOutput])),
            // stop
            ("idle", .stop, .to(.idle, [])),
            ("loading", .stop, .to(.stopped(index: 0), [.stopOutput])),
            ("loadingPaused", .stop, .to(.stopped(index: 0), [.stopOutput])),
            ("playing", .stop, .to(.stopped(index: 0), [.stopOutput])),
            ("paused", .stop, .to(.stopped(index: 0), [.stopOutput])),
            ("stopped", .stop, .to(.stopped(index: 0), [])),
            ("playingLast", .stop, .to(.stopped(index: 3), [.stopOutput])),
            // next: skips item 2 (no preview); at the end, stops
            ("idle", .next, .to(Self.L(0, 1, true), [load(0, 1)])),
            ("loading", .next, .to(Self.L(1, 2, true), [load(1, 2)])),
            ("loadingPaused", .next, .to(Self.L(1, 2, true), [load(1, 2)])),
            ("playing", .next, .to(Self.L(1, 2, true), [load(1, 2)])),
            ("paused", .next, .to(Self.L(1, 2, true), [load(1, 2)])),
            ("stopped", .next, .to(Self.L(1, 2, true), [load(1, 2)])),
            ("playingLast", .next, .to(.stopped(index: 3), [.stopOutput])),
            // prev: always the previous playable track; at the first, that track again
            ("idle", .prev, .to(Self.L(0, 1, true), [load(0, 1)])),
            ("loading", .prev, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("loadingPaused", .prev, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("playing", .prev, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("paused", .prev, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("stopped", .prev, .to(Self.L(0, 2, true), [load(0, 2)])),
            ("playingLast", .prev, .to(Self.L(1, 2, true), [load(1, 2)])),
            // seek: the same track decoded again from the new position, keeping play/pause
            ("idle", .seek(toMs: 1500), .rejected(.nothingToControl)),
            ("loading", .seek(toMs: 1500), .to(Self.L(0, 2, true), [seekLoad(0, 2)])),
            ("loadingPaused", .seek(toMs: 1500), .to(Self.L(0, 2, false), [seekLoad(0, 2)])),
            ("playing", .seek(toMs: 1500), .to(Self.L(0, 2, true), [seekLoad(0, 2)])),
            ("paused", .seek(toMs: 1500), .to(Self.L(0, 2, false), [seekLoad(0, 2)])),
            ("stopped", .seek(toMs: 1500), .rejected(.nothingToControl)),
            ("playingLast", .seek(toMs: 1500), .to(Self.L(3, 2, true), [seekLoad(3, 2)])),
            // queueReplaced(start: 1)
            ("idle", .queueReplaced(start: 1), .to(Self.L(1, 1, true), [load(1, 1)])),
            ("loading", .queueReplaced(start: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("loadingPaused", .queueReplaced(start: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("playing", .queueReplaced(start: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("paused", .queueReplaced(start: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("stopped", .queueReplaced(start: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("playingLast", .queueReplaced(start: 1), .to(Self.L(1, 2, true), [load(1, 2)])),
            // queueReplaced(start: 1, play: false): wait, stopped at the first playable track from 1
            ("idle", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [])),
            ("loading", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [.stopOutput])),
            ("loadingPaused", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [.stopOutput])),
            ("playing", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [.stopOutput])),
            ("paused", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [.stopOutput])),
            ("stopped", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [])),
            ("playingLast", .queueReplaced(start: 1, play: false), .to(.stopped(index: 1), [.stopOutput])),
            // queueEdited: items 0 and 1 swapped; the current track follows its item, nothing reloads
            ("idle", .queueEdited(map: [1, 0, 2, 3]), .to(.idle, [])),
            ("loading", .queueEdited(map: [1, 0, 2, 3]), .to(Self.L(1, 1, true), [])),
            ("loadingPaused", .queueEdited(map: [1, 0, 2, 3]), .to(Self.L(1, 1, false), [])),
            ("playing", .queueEdited(map: [1, 0, 2, 3]), .to(Self.P(1, 1), [])),
            ("paused", .queueEdited(map: [1, 0, 2, 3]), .to(Self.Z(1, 1), [])),
            ("stopped", .queueEdited(map: [1, 0, 2, 3]), .to(.stopped(index: 1), [])),
            ("playingLast", .queueEdited(map: [1, 0, 2, 3]), .to(Self.P(3, 1), [])),
            // trackReady(#1)
            ("idle", .trackReady(Self.r(1)), .to(.idle, [])),
            ("loading", .trackReady(Self.r(1)), .to(Self.P(0, 1), [.startOutput(request: Self.r(1), paused: false)])),
            ("loadingPaused", .trackReady(Self.r(1)), .to(Self.Z(0, 1), [.startOutput(request: Self.r(1), paused: true)])),
            ("playing", .trackReady(Self.r(1)), .to(Self.P(0, 1), [])),
            ("paused", .trackReady(Self.r(1)), .to(Self.Z(0, 1), [])),
            ("stopped", .trackReady(Self.r(1)), .to(.stopped(index: 0), [])),
            ("playingLast", .trackReady(Self.r(1)), .to(Self.P(3, 1), [])),
            // a stale event (a load that is no longer current) changes nothing anywhere
            ("idle", .trackReady(Self.r(99)), .to(.idle, [])),
            ("loading", .trackReady(Self.r(99)), .to(Self.L(0, 1, true), [])),
            ("loadingPaused", .trackFailed(Self.r(99), "x"), .to(Self.L(0, 1, false), [])),
            ("playing", .trackEnded(Self.r(99)), .to(Self.P(0, 1), [])),
            ("paused", .trackFailed(Self.r(99), "x"), .to(Self.Z(0, 1), [])),
            ("stopped", .trackEnded(Self.r(99)), .to(.stopped(index: 0), [])),
            ("playingLast", .trackFailed(Self.r(99), "x"), .to(Self.P(3, 1), [])),
            // trackFailed(#1): mark it, move to the next playable one
            ("idle", .trackFailed(Self.r(1), "x"), .to(.idle, [])),
            ("loading", .trackFailed(Self.r(1), "x"), .to(Self.L(1, 2, true), [.markFailed(index: 0, message: "x"), load(1, 2)])),
            ("loadingPaused", .trackFailed(Self.r(1), "x"), .to(Self.L(1, 2, true), [.markFailed(index: 0, message: "x"), load(1, 2)])),
            ("playing", .trackFailed(Self.r(1), "x"), .to(Self.L(1, 2, true), [.markFailed(index: 0, message: "x"), load(1, 2)])),
            ("paused", .trackFailed(Self.r(1), "x"), .to(Self.L(1, 2, true), [.markFailed(index: 0, message: "x"), load(1, 2)])),
            ("stopped", .trackFailed(Self.r(1), "x"), .to(.stopped(index: 0), [])),
            ("playingLast", .trackFailed(Self.r(1), "x"), .to(.stopped(index: 3), [.markFailed(index: 3, message: "x"), .stopOutput])),
            // trackEnded(#1): only a playing track ends
            ("idle", .trackEnded(Self.r(1)), .to(.idle, [])),
            ("loading", .trackEnded(Self.r(1)), .to(Self.L(0, 1, true), [])),
            ("loadingPaused", .trackEnded(Self.r(1)), .to(Self.L(0, 1, false), [])),
            ("playing", .trackEnded(Self.r(1)), .to(Self.L(1, 2, true), [load(1, 2)])),
            ("paused", .trackEnded(Self.r(1)), .to(Self.Z(0, 1), [])),
            ("stopped", .trackEnded(Self.r(1)), .to(.stopped(index: 0), [])),
            ("playingLast", .trackEnded(Self.r(1)), .to(.stopped(index: 3), [.stopOutput])),
        ]
        let rejectedEverywhere: [(Transport.Input, Transport.Rejection)] = [
            (.play(index: 2), .notPlayable(2)),
            (.play(index: 9), .noSuchIndex(9, count: 4)),
        ]

        var covered = Set<String>()
        for (setup, input, expected) in table {
            var transport = try start(setup)
            let before = transport.state
            let outcome: Outcome
            do {
                let actions = try transport.handle(input, queue: queue)
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
                XCTAssertThrowsError(try transport.handle(input, queue: queue), "\(setup) + \(input)") {
                    XCTAssertEqual($0 as? Transport.Rejection, rejection)
                }
            }
        }
        XCTAssertEqual(covered, Set(setups.keys))
        XCTAssertEqual(table.count, 7 * 16, "one row per state for each of the 16 input kinds in the table")
    }

    func testRemovingTheCurrentTrackPlaysTheOneThatTookItsPlace() throws {
        var playing = try start("playing")   // playing 0
        var shorter = queue
        let map = shorter.remove(at: 0)
        XCTAssertEqual(map, [nil, 0, 1, 2])
        XCTAssertEqual(try playing.handle(.queueEdited(map: map), queue: shorter), [.load(index: 0, request: Self.r(2), startMs: 0)])
        XCTAssertEqual(playing.state, Self.L(0, 2, true))

        var paused = try start("paused")
        XCTAssertEqual(try paused.handle(.queueEdited(map: map), queue: shorter), [.load(index: 0, request: Self.r(2), startMs: 0)])
        XCTAssertEqual(paused.state, Self.L(0, 2, false), "a paused queue stays paused on the new track")

        var last = try start("playingLast")  // playing 3, the last
        var cut = queue
        let lastMap = cut.remove(at: 3)
        XCTAssertEqual(try last.handle(.queueEdited(map: lastMap), queue: cut), [.stopOutput])
        XCTAssertEqual(last.state, .stopped(index: nil))

        var cleared = try start("playing")
        var empty = queue
        let all = empty.removeAll()
        XCTAssertEqual(try cleared.handle(.queueEdited(map: all), queue: empty), [.stopOutput])
        XCTAssertEqual(cleared.state, .idle)

        var earlier = try start("playingLast")   // removing an item before the current one shifts it
        var before = queue
        let beforeMap = before.remove(at: 1)
        XCTAssertEqual(try earlier.handle(.queueEdited(map: beforeMap), queue: before), [])
        XCTAssertEqual(earlier.state, Self.P(2, 1))
    }

    func testMovingKeepsAShuffledOrderAndTheQueueConsistent() throws {
        var q = queue
        XCTAssertEqual(q.move(from: 3, to: 0), [1, 2, 3, 0])
        XCTAssertEqual(q.items.map(\.track.trackId), [4, 1, 2, 3])
        let shuffled = PlayOrder.shuffled(count: 4, first: 0, seed: 7)
        let remapped = shuffled.remapped([nil, 0, 1, 2], count: 3)
        XCTAssertEqual(Set(remapped.indices), [0, 1, 2])
        XCTAssertEqual(remapped.indices, shuffled.indices.filter { $0 != 0 }.map { $0 - 1 })
    }

    func testEmptyQueue() throws {
        var transport = Transport()
        let empty = PlayQueue()
        XCTAssertThrowsError(try transport.handle(.play(index: nil), queue: empty))
        XCTAssertThrowsError(try transport.handle(.next, queue: empty))
        XCTAssertThrowsError(try transport.handle(.prev, queue: empty))
        XCTAssertEqual(try transport.handle(.queueReplaced(start: 0), queue: empty), [])
        XCTAssertEqual(transport.state, .idle)
    }

    func testClientFacingStateAndIndex() throws {
        var transport = try start("loadingPaused")
        XCTAssertEqual(transport.playbackState, .loading)
        XCTAssertEqual(transport.index, 0)
        transport = try start("paused")
        XCTAssertEqual(transport.playbackState, .paused)
        XCTAssertEqual(transport.currentRequest, RequestID(1))
        transport = try start("stopped")
        XCTAssertEqual(transport.playbackState, .stopped)
        XCTAssertNil(transport.currentRequest)
    }

    private func start(_ name: String) throws -> Transport {
        var transport = Transport()
        for input in setups[name]! { _ = try transport.handle(input, queue: queue) }
        return transport
    }
}
