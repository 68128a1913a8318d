@testable import PreviewCore
import XCTest

/// `Playhead` alone: a load is held exactly while the transport is active, because only the
/// active case has one.
final class PlayheadTests: XCTestCase {
    private let queue = PlayQueue(tracks: [Track(trackId: 1, previewUrl: "https://example.com/1.m4a")])
    private func slot(_ id: PlayerCore.SlotID) -> PlayerCore.Slot {
        PlayerCore.Slot(id: id, item: queue.ids[0], url: "https://example.com/1.m4a", startMs: 0, phase: .decoding)
    }

    func testAnIdlePlayheadHoldsNoLoad() {
        let playhead = Playhead()
        XCTAssertEqual(playhead.transport, Transport())
        XCTAssertNil(playhead.current)
    }

    func testALoadIsHeldFromTheLoadToTheStop() throws {
        var playhead = Playhead()
        var transport = playhead.transport
        XCTAssertEqual(try transport.handle(.play(item: queue.ids[0]), queue: queue), [.load(item: queue.ids[0], startMs: 0)])
        playhead.load(slot(1), on: transport)
        XCTAssertEqual(playhead.current?.id, 1)
        XCTAssertEqual(try transport.handle(.trackReady, queue: queue), [.startOutput(paused: false)])
        playhead.move(to: transport)   // playing: the same load
        XCTAssertEqual(playhead, .active(transport, current: slot(1)))
        XCTAssertEqual(try transport.handle(.stop, queue: queue), [.stopOutput])
        playhead.rest(transport)
        XCTAssertNil(playhead.current)
        XCTAssertEqual(playhead.transport.playbackState, .stopped)
    }

    func testTheCurrentLoadChangesInPlaceAndARestingOneIsNotThere() throws {
        var playhead = Playhead()
        XCTAssertFalse(playhead.updateCurrent { $0.phase = .ready })
        var transport = playhead.transport
        _ = try transport.handle(.play(item: queue.ids[0]), queue: queue)
        playhead.load(slot(1), on: transport)
        XCTAssertTrue(playhead.updateCurrent { $0.durationMs = 30_000 })
        XCTAssertEqual(playhead.current?.durationMs, 30_000)
        playhead.load(slot(2), on: transport)   // a seek: another load of the same item
        XCTAssertEqual(playhead.current?.id, 2)
    }
}
