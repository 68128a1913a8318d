import PreviewCore
import XCTest

/// The transport's inputs that leave the state alone, output loss and return, repeat and shuffle.
final class TransportModesTests: XCTestCase {
    /// Six playable tracks; `PlayQueue(tracks:)` gives them ids 1...6 (index i has id i + 1), and
    /// the tests below name items by those ids.
    let queue = PlayQueue(tracks: (0..<6).map { (n: Int) in Track(trackId: n, previewUrl: "https://example.com/\(n).m4a") })

    /// Every state, reached from a new transport.
    let setups = TransportSetups.inputs(lastItem: 6)

    private func start(_ name: String, queue: PlayQueue? = nil) throws -> Transport {
        var transport = Transport()
        for input in setups[name]! { _ = try transport.handle(input, queue: queue ?? self.queue) }
        return transport
    }

    func testInputsThatOnlySetFlagsLeaveEveryStateAlone() throws {
        // `.queueAppended` is now `.queueEdited(successor: nil)` given the queue with the items
        // appended (the current item is still there, so there is no successor).
        var longer = queue
        try longer.append([Track(trackId: 6, previewUrl: "https://example.com/6.m4a")])
        let inert: [(Transport.Input, PlayQueue)] = [
            (.queueEdited(successor: nil), longer), (.underrun, queue), (.refilled, queue), (.outputLost, queue),
            (.outputBack(positionMs: 2_500), queue), (.setRepeat(.all), queue), (.setRepeat(.one), queue),
            (.setShuffle(true, seed: 1), queue), (.setShuffle(false, seed: 2), queue),
        ]
        for (name, _) in setups {
            for (input, given) in inert {
                var transport = try start(name)
                let before = transport.state
                XCTAssertEqual(try transport.handle(input, queue: given), [], "\(name) + \(input)")
                XCTAssertEqual(transport.state, before, "\(name) + \(input)")
            }
        }
    }

    func testBufferingFollowsTheCurrentLoadOnly() throws {
        // (The old first step, "a stale underrun (of request 99) is ignored", is PlayerCore's now:
        // it passes on only the current load's reports.)
        var transport = try start("playing")
        _ = try transport.handle(.underrun, queue: queue)
        XCTAssertTrue(transport.buffering)
        _ = try transport.handle(.refilled, queue: queue)
        XCTAssertFalse(transport.buffering)
        _ = try transport.handle(.underrun, queue: queue)
        _ = try transport.handle(.next, queue: queue)
        XCTAssertFalse(transport.buffering, "a new load starts unbuffered")

        var stopped = try start("stopped")
        _ = try stopped.handle(.underrun, queue: queue)
        XCTAssertFalse(stopped.buffering, "with no current load there is nothing to buffer")
    }

    func testOutputBackResumesWhereTheSoundStopped() throws {
        let expected: [String: (Transport.State, [Transport.Action])] = [
            "idle": (.idle, []),
            "loading": (.loading(item: 1, autoplay: true), []),
            "loadingPaused": (.loading(item: 1, autoplay: false), []),
            "playing": (.loading(item: 1, autoplay: true), [.load(item: 1, startMs: 2_500)]),
            "paused": (.loading(item: 1, autoplay: false), [.load(item: 1, startMs: 2_500)]),
            "stopped": (.stopped(item: 1), []),
            "playingLast": (.loading(item: 6, autoplay: true), [.load(item: 6, startMs: 2_500)]),
        ]
        XCTAssertEqual(Set(expected.keys), Set(setups.keys))
        for (name, (state, actions)) in expected {
            var transport = try start(name)
            _ = try transport.handle(.outputLost, queue: queue)
            XCTAssertTrue(transport.outputLost)
            XCTAssertEqual(try transport.handle(.outputBack(positionMs: 2_500), queue: queue), actions, name)
            XCTAssertEqual(transport.state, state, name)
            XCTAssertFalse(transport.outputLost)
        }
    }

    func testRepeatAllWrapsAndRepeatOneReplaysButNextStillMovesOn() throws {
        var transport = try start("playingLast")
        _ = try transport.handle(.setRepeat(.all), queue: queue)
        XCTAssertEqual(transport.upcoming(in: queue), 1)
        XCTAssertEqual(try transport.handle(.trackEnded, queue: queue), [.load(item: 1, startMs: 0)])

        transport = try start("playing")
        _ = try transport.handle(.setRepeat(.one), queue: queue)
        XCTAssertEqual(transport.upcoming(in: queue), 1)
        XCTAssertEqual(try transport.handle(.trackEnded, queue: queue), [.load(item: 1, startMs: 0)])
        _ = try transport.handle(.trackReady, queue: queue)
        XCTAssertEqual(transport.next(in: queue), 2)
        XCTAssertEqual(try transport.handle(.next, queue: queue), [.load(item: 2, startMs: 0)])

        transport = try start("playingLast")
        XCTAssertNil(transport.upcoming(in: queue), "repeat off: the queue ends")
        XCTAssertEqual(try transport.handle(.trackEnded, queue: queue), [.stopOutput])
    }

    func testShuffleIsAPermutationThatNextFollowsAndPrevWalksBack() throws {
        var transport = try start("playing")
        _ = try transport.handle(.setShuffle(true, seed: 42), queue: queue)
        let order = transport.order.ids(in: queue)
        XCTAssertEqual(transport.order.shuffle, order)
        XCTAssertEqual(order.first, 1, "the current track stays current")
        XCTAssertEqual(order.sorted(), Array(1...6))
        var played = [1]
        for n in 2...6 {
            XCTAssertEqual(transport.upcoming(in: queue), order[n - 1])
            XCTAssertEqual(transport.next(in: queue), order[n - 1])
            _ = try transport.handle(.next, queue: queue)
            played.append(transport.item!)
            _ = try transport.handle(.trackReady, queue: queue)
        }
        XCTAssertEqual(played, order)
        for n in (0..<5).reversed() {
            _ = try transport.handle(.prev, queue: queue)
            XCTAssertEqual(transport.item, order[n])
        }
        XCTAssertNotEqual(order, Array(1...6), "seed 42 shuffles this queue")

        // Same seed, same order: reproducible.
        var again = try start("playing")
        _ = try again.handle(.setShuffle(true, seed: 42), queue: queue)
        XCTAssertEqual(again.order.ids(in: queue), order)
        _ = try again.handle(.setShuffle(false, seed: 0), queue: queue)
        XCTAssertNil(again.order.shuffle)
        XCTAssertEqual(again.order.ids(in: queue), Array(1...6))
    }

    func testAppendedItemsJoinThePlayOrder() throws {
        var transport = try start("playingLast")   // playing item 6
        var longer = queue
        let added = try longer.append([Track(trackId: 6, previewUrl: "https://example.com/6.m4a")])
        XCTAssertEqual(added, [7])
        XCTAssertEqual(try transport.handle(.queueEdited(successor: nil), queue: longer), [])
        XCTAssertEqual(transport.upcoming(in: longer), 7)   // was index 6, the same item
    }

    func testRepeatAllStopsWhenEveryTrackFailed() throws {
        let one = PlayQueue(tracks: [Track(trackId: 1, previewUrl: "https://example.com/1.m4a")])
        var transport = Transport()
        _ = try transport.handle(.setRepeat(.all), queue: one)
        _ = try transport.handle(.queueReplaced(), queue: one)
        XCTAssertEqual(try transport.handle(.trackFailed("broken"), queue: one),
                       [.markFailed(item: 1, message: "broken"), .stopOutput])
        XCTAssertEqual(transport.state, .stopped(item: 1))
    }
}
