@testable import PreviewCore
import XCTest

/// `HeadsState` alone: what is shown, which heads may start, and how a head leaves (taken, let go, failed).
final class HeadsStateTests: XCTestCase {
    private static func track(_ id: Int) -> Track { Track(trackId: id, previewUrl: "https://example.com/\(id).m4a") }
    private static func url(_ id: Int) -> String { "https://example.com/\(id).m4a" }

    func testAnAnswerReplacesWhatIsShownAndForgetsTheVisibleRows() {
        var state = HeadsState()
        state.answered([1, 2].map(Self.track))
        state.show(trackIds: [2], queue: PlayQueue())
        XCTAssertEqual(state.visible, [Self.url(2)])
        state.answered((0..<300).map(Self.track))
        XCTAssertEqual(state.shown.count, HeadsState.maxShown)
        XCTAssertNil(state.visible)
    }

    func testVisibleRowsAreFoundInTheAnswerOrTheQueueAndUnknownOnesLeftOut() {
        var state = HeadsState()
        state.answered([Self.track(1)])
        state.show(trackIds: [9, 1, 5, 1], queue: PlayQueue(tracks: [Self.track(5)]))
        XCTAssertEqual(state.visible, [Self.url(1), Self.url(5)])
    }

    func testHeadsStartWithinTheTransfersAllowed() {
        var state = HeadsState()
        state.start(Self.url(1), id: 1)
        let wanted = [1, 2, 3, 4].map(Self.url)
        XCTAssertEqual(state.startable(wanted, maxTransfers: 3), [Self.url(2), Self.url(3)])
        state.fetched(Self.url(1))
        XCTAssertEqual(state.startable(wanted, maxTransfers: 3), [2, 3, 4].map(Self.url))
        XCTAssertEqual(state.startable(wanted, maxTransfers: 0), [])
    }

    func testTheHeadsNotWantedAreLetGoOldestFirst() {
        var state = HeadsState()
        state.start(Self.url(2), id: 5)
        state.start(Self.url(1), id: 4)
        state.start(Self.url(3), id: 6)
        var effects: [PlayerCore.Effect] = []
        state.keep(only: [Self.url(3)], into: &effects)
        XCTAssertEqual(effects, [.cancelSlot(4), .cancelDownload(url: Self.url(1)), .cancelSlot(5), .cancelDownload(url: Self.url(2))])
        XCTAssertEqual(Array(state.heads.keys), [Self.url(3)])
    }

    func testAFailedHeadIsNotWantedAgainUntilItsPreviewIsPlayed() {
        var state = HeadsState()
        state.answered([Self.track(1)])
        let plan = HeadPlan(perList: 2, budgetBytes: 16 << 20, windowLoads: 3)
        state.start(Self.url(1), id: 1)
        var effects: [PlayerCore.Effect] = []
        state.fail(Self.url(1), into: &effects)
        XCTAssertEqual(effects, [.cancelSlot(1), .cancelDownload(url: Self.url(1))])
        XCTAssertEqual(state.wanted(plan, around: [], held: []), [])
        XCTAssertNil(state.take(Self.url(1)))   // played: forgiven
        XCTAssertEqual(state.wanted(plan, around: [], held: []), [Self.url(1)])
        XCTAssertEqual(state.wanted(plan, around: [], held: [Self.url(1)]), [])   // held whole
    }

    func testOnlyTheLatestFailuresAreRemembered() {
        var state = HeadsState()
        var effects: [PlayerCore.Effect] = []
        for i in 0..<(HeadsState.maxFailed + 4) { state.fail(Self.url(i), into: &effects) }
        XCTAssertEqual(state.failed.count, HeadsState.maxFailed)
        XCTAssertEqual(state.failed.first, Self.url(4))
        XCTAssertEqual(effects, [])   // none was held
    }

    func testADecoderReportsProgressToItsHeadAndFinishedStays() {
        var state = HeadsState()
        state.start(Self.url(1), id: 3)
        XCTAssertFalse(state.record(9, .ready))
        XCTAssertTrue(state.record(3, .ready, durationMs: 30_000))
        XCTAssertTrue(state.record(3, .finished))
        XCTAssertTrue(state.record(3, .ready))
        XCTAssertEqual(state.heads[Self.url(1)]?.phase, .finished)
        XCTAssertEqual(state.heads[Self.url(1)]?.durationMs, 30_000)
        XCTAssertEqual(state.url(of: 3), Self.url(1))
        state.arrivedWhole(Self.url(1))
        XCTAssertEqual(state.take(Self.url(1))?.complete, true)
        XCTAssertTrue(state.heads.isEmpty)
    }
}
