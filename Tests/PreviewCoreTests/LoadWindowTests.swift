@testable import PreviewCore
import XCTest

/// `LoadWindow` alone: what a neighbour, the follower, the fading slot and a download become, and
/// that whatever leaves the window is let go by an effect.
final class LoadWindowTests: XCTestCase {
    typealias Effect = PlayerCore.Effect

    private func window(neighbours items: [Int]) -> LoadWindow {
        var window = LoadWindow()
        var effects: [Effect] = []
        for item in items {
            window.want("u\(item)", trackId: item, into: &effects)
            window.hold(window.newSlot(item, url: "u\(item)", startMs: 0))
        }
        return window
    }

    func testSlotIdsAreNeverGivenTwice() {
        var window = LoadWindow()
        let a = window.newSlot(1, url: "u1", startMs: 0).id
        let head = window.newID()
        let b = window.newSlot(1, url: "u1", startMs: 5_000).id
        XCTAssertEqual([a, head, b], [1, 2, 3])
    }

    func testADownloadIsStartedOnceAndAFailedOneAgain() {
        var window = LoadWindow()
        var effects: [Effect] = []
        window.want("u", trackId: 7, into: &effects)
        window.want("u", trackId: 7, into: &effects)
        XCTAssertEqual(effects, [.startDownload(url: "u", trackId: 7)])
        XCTAssertTrue(window.isArriving("u"))
        XCTAssertTrue(window.downloadEnded("u", complete: false))
        XCTAssertFalse(window.downloadEnded("v", complete: true))
        effects = []
        window.want("u", trackId: 7, into: &effects)
        XCTAssertEqual(effects, [.cancelDownload(url: "u"), .startDownload(url: "u", trackId: 7)])
    }

    func testDownloadsNotKeptAreLetGoInOrder() {
        var window = window(neighbours: [3, 1, 2])
        var effects: [Effect] = []
        window.keepDownloads(["u2"], into: &effects)
        XCTAssertEqual(effects, [.cancelDownload(url: "u1"), .cancelDownload(url: "u3")])
        XCTAssertEqual(Array(window.downloads.keys), ["u2"])
    }

    func testDroppingTheNeighboursLetsThemAndTheFollowerGo() {
        var window = window(neighbours: [2, 1])
        window.follow(window.prefetched[1]!.id)
        var effects: [Effect] = []
        window.dropNeighbours(into: &effects)
        XCTAssertEqual(effects, [.cancelSlot(1), .cancelSlot(2), .follow(nil)])
        XCTAssertTrue(window.prefetched.isEmpty)
        XCTAssertNil(window.follower)
        XCTAssertEqual(window.downloads.count, 2)   // the downloads are settled apart
    }

    func testOnlyTheWantedNeighboursWithTheirPreviewStay() {
        var window = window(neighbours: [1, 2])
        window.follow(window.prefetched[2]!.id)
        var queue = PlayQueue()
        queue.replaceAll(with: [Track(trackId: 1, previewUrl: "https://example.com/1.m4a")])   // item 1's preview differs
        var effects: [Effect] = []
        window.dropNeighbours(notIn: [1: true], queue: queue, into: &effects)
        XCTAssertEqual(effects.count, 3)   // in the dictionary's order
        for effect: Effect in [.cancelSlot(1), .cancelSlot(2), .follow(nil)] { XCTAssertTrue(effects.contains(effect)) }
        XCTAssertTrue(window.prefetched.isEmpty)
    }

    func testANeighbourBecomesCurrentWhenFreshOrAlreadyPlaying() {
        var window = window(neighbours: [1, 2])
        let two = window.prefetched[2]!.id
        window.follow(two)
        window.started(two)   // the output moved on to it by itself
        XCTAssertNil(window.follower)
        XCTAssertEqual(window.prefetched[2]?.heard, true)
        XCTAssertNil(window.takeNeighbour(2, url: "u2", outputPlaying: nil))   // heard, but not what plays
        XCTAssertEqual(window.takeNeighbour(2, url: "u2", outputPlaying: two)?.id, two)
        XCTAssertNil(window.prefetched[2])
        _ = window.downloadEnded("u1", complete: false)
        XCTAssertNil(window.takeNeighbour(1, url: "u1", outputPlaying: nil))   // its download failed
    }

    func testAFailedNeighbourIsLetGoUnlessItHadAudio() {
        var window = window(neighbours: [1, 2])
        let (one, two) = (window.prefetched[1]!.id, window.prefetched[2]!.id)
        window.follow(two)
        var effects: [Effect] = []
        XCTAssertNil(window.neighbourFailed(one, afterMs: 800, into: &effects))
        XCTAssertEqual(window.prefetched[1]?.phase, .finished)
        XCTAssertEqual(window.neighbourFailed(two, afterMs: 0, into: &effects), 2)
        XCTAssertEqual(effects, [.cancelSlot(two), .follow(nil)])
        XCTAssertNil(window.neighbourFailed(99, afterMs: 0, into: &effects))
    }

    func testAFadedSlotIsLetGoUnlessItIsStillHeld() {
        var window = LoadWindow()
        let old = window.newSlot(1, url: "u1", startMs: 0)
        var effects: [Effect] = []
        window.startFading(old)
        window.releaseFading(current: old, into: &effects)   // its fade never took over
        XCTAssertEqual(effects, [])
        window.startFading(old)
        window.releaseFading(current: nil, into: &effects)
        XCTAssertEqual(effects, [.cancelSlot(old.id)])
        XCTAssertNil(window.fading)
    }

    func testAHeadsDownloadGoesOnAsALoads() {
        var window = LoadWindow()
        window.adoptDownload("u", complete: false)
        XCTAssertTrue(window.isArriving("u"))
        window.adoptDownload("v", complete: true)
        XCTAssertEqual(window.downloads["v"], .complete)
    }
}
