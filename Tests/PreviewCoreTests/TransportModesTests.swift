import PreviewCore
import XCTest

/// The transport's inputs that leave the state alone, output loss and return, repeat and shuffle.
final class TransportModesTests: XCTestCase {
    let queue = PlayQueue(tracks: (0..<6).map { Track(trackId: $0, previewUrl: "https://example.com/\($0).m4a") })
    static func r(_ n: UInt64) -> RequestID { RequestID(n) }

    /// Every state, reached from a new transport.
    let setups = TransportSetups.inputs(last: 5)

    private func start(_ name: String, queue: PlayQueue? = nil) throws -> Transport {
        var transport = Transport()
        for input in setups[name]! { _ = try transport.handle(input, queue: queue ?? self.queue) }
        return transport
    }

    func testInputsThatOnlySetFlagsLeaveEveryStateAlone() throws {
        let inert: [Transport.Input] = [.queueAppended, .underrun(Self.r(1)), .refilled(Self.r(1)), .outputLost,
                                        .outputBack(positionMs: 2_500), .setRepeat(.all), .setRepeat(.one),
                                        .setShuffle(true, seed: 1), .setShuffle(false, seed: 2)]
        for (name, _) in setups {
            for input in inert {
                var transport = try start(name)
                let before = transport.state
                XCTAssertEqual(try transport.handle(input, queue: queue), [], "\(name) + \(input)")
                XCTAssertEqual(transport.state, before, "\(name) + \(input)")
            }
        }
    }

    func testBufferingFollowsTheCurrentLoadOnly() throws {
        var transport = try start("playing")
        _ = try transport.handle(.underrun(Self.r(99)), queue: queue)
        XCTAssertFalse(transport.buffering, "a stale underrun is ignored")
        _ = try transport.handle(.underrun(Self.r(1)), queue: queue)
        XCTAssertTrue(transport.buffering)
        _ = try transport.handle(.refilled(Self.r(1)), queue: queue)
        XCTAssertFalse(transport.buffering)
        _ = try transport.handle(.underrun(Self.r(1)), queue: queue)
        _ = try transport.handle(.next, queue: queue)
        XCTAssertFalse(transport.buffering, "a new load starts unbuffered")
    }

    func testOutputBackResumesWhereTheSoundStopped() throws {
        let expected: [String: (Transport.State, [Transport.Action])] = [
            "idle": (.idle, []),
            "loading": (.loading(index: 0, request: Self.r(1), autoplay: true), []),
            "loadingPaused": (.loading(index: 0, request: Self.r(1), autoplay: false), []),
            "playing": (.loading(index: 0, request: Self.r(2), autoplay: true), [.load(index: 0, request: Self.r(2), startMs: 2_500)]),
            "paused": (.loading(index: 0, request: Self.r(2), autoplay: false), [.load(index: 0, request: Self.r(2), startMs: 2_500)]),
            "stopped": (.stopped(index: 0), []),
            "playingLast": (.loading(index: 5, request: Self.r(2), autoplay: true), [.load(index: 5, request: Self.r(2), startMs: 2_500)]),
        ]
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
        XCTAssertEqual(transport.upcoming(in: queue), 0)
        XCTAssertEqual(try transport.handle(.trackEnded(Self.r(1)), queue: queue), [.load(index: 0, request: Self.r(2), startMs: 0)])

        transport = try start("playing")
        _ = try transport.handle(.setRepeat(.one), queue: queue)
        XCTAssertEqual(transport.upcoming(in: queue), 0)
        XCTAssertEqual(try transport.handle(.trackEnded(Self.r(1)), queue: queue), [.load(index: 0, request: Self.r(2), startMs: 0)])
        _ = try transport.handle(.trackReady(Self.r(2)), queue: queue)
        XCTAssertEqual(try transport.handle(.next, queue: queue), [.load(index: 1, request: Self.r(3), startMs: 0)])

        transport = try start("playingLast")
        XCTAssertNil(transport.upcoming(in: queue), "repeat off: the queue ends")
        XCTAssertEqual(try transport.handle(.trackEnded(Self.r(1)), queue: queue), [.stopOutput])
    }

    func testShuffleIsAPermutationThatNextFollowsAndPrevWalksBack() throws {
        var transport = try start("playing")
        _ = try transport.handle(.setShuffle(true, seed: 42), queue: queue)
        let order = transport.order.indices
        XCTAssertEqual(order.first, 0, "the current track stays current")
        XCTAssertEqual(order.sorted(), Array(0..<6))
        var played = [0]
        for n in 2...6 {
            XCTAssertEqual(transport.upcoming(in: queue), order[n - 1])
            _ = try transport.handle(.next, queue: queue)
            played.append(transport.index!)
            _ = try transport.handle(.trackReady(Self.r(UInt64(n))), queue: queue)
        }
        XCTAssertEqual(played, order)
        for n in (0..<5).reversed() {
            _ = try transport.handle(.prev, queue: queue)
            XCTAssertEqual(transport.index, order[n])
        }
        XCTAssertNotEqual(order, Array(0..<6), "seed 42 shuffles this queue")

        // Same seed, same order: reproducible.
        var again = try start("playing")
        _ = try again.handle(.setShuffle(true, seed: 42), queue: queue)
        XCTAssertEqual(again.order.indices, order)
        _ = try again.handle(.setShuffle(false, seed: 0), queue: queue)
        XCTAssertEqual(again.order.indices, Array(0..<6))
    }

    func testAppendedItemsJoinThePlayOrder() throws {
        var transport = try start("playingLast")
        var longer = queue
        try longer.append([Track(trackId: 6, previewUrl: "https://example.com/6.m4a")])
        _ = try transport.handle(.queueAppended, queue: longer)
        XCTAssertEqual(transport.upcoming(in: longer), 6)
    }

    func testRepeatAllStopsWhenEveryTrackFailed() throws {
        let one = PlayQueue(tracks: [Track(trackId: 1, previewUrl: "https://example.com/1.m4a")])
        var transport = Transport()
        _ = try transport.handle(.setRepeat(.all), queue: one)
        _ = try transport.handle(.queueReplaced(start: 0), queue: one)
        XCTAssertEqual(try transport.handle(.trackFailed(Self.r(1), "broken"), queue: one),
                       [.markFailed(index: 0, message: "broken"), .stopOutput])
        XCTAssertEqual(transport.state, .stopped(index: 0))
    }
}
