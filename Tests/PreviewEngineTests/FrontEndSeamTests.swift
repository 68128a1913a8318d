import Foundation
import PreviewCore
import PreviewEngine
import PreviewTestSupport
import XCTest

/// The front-end seam in-process: the engine built as previewd builds it (its loop on a thread of
/// its own here), over the iTunes stand-in on loopback and a real PulseAudio output, steered by a
/// front-end registered as previewd registers its own. Results and errors come back typed; events
/// come in order; position ticks reach only the observer that asked.
final class FrontEndSeamTests: StandInTestCase {
    private var rig: StandInEngine!
    private var engine: Engine { rig.engine }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let sequencer = try OutputRegistry.makeSequencer(OutputOptions(pulseServer: ProcessInfo.processInfo.environment["PULSE_SERVER"]))
        var policy = FetchPolicy()
        policy.prefetchHeads = 4
        policy.prefetchHeadBytes = 16 << 10   // the fixtures are about 65 KB: a head is a quarter of one
        rig = StandInEngine(baseURL: server.baseURL, origin: origin, sequencer: sequencer, policy: policy)
    }

    override func tearDown() {
        rig.stop(in: self)
        rig = nil   // XCTest keeps test cases: a sequencer left here would be alive (and its weak references "leaked") at exit
        super.tearDown()
    }

    /// Runs the engine's loop on a thread of its own and starts the engine (player, then front-ends).
    private func startEngine() throws { try rig.start(in: self) }

    func testAFrontEndPerformsCommandsAndHearsEventsOverTheSeam() async throws {
        let recorder = engine.add { RecordingFrontEnd(engine: $0) }
        let ticker = engine.add { RecordingFrontEnd(engine: $0, wantsPosition: true) }
        try startEngine()

        let playing = recorder.expectation("the first track plays") { $0 == .state(.playing, index: 0, id: 1) }
        let found = try await recorder.perform(.search(CatalogQuery(term: "sine waves", limit: 3), Enqueue()))
        guard case .catalog(let report) = found else { return XCTFail("search answered \(found)") }
        XCTAssertEqual(report.results.map(\.trackId), [1001, 1002, 1003])
        XCTAssertEqual(report.firstQueueIndex, 0)
        await fulfillment(of: [playing], timeout: Patience.seconds(30))
        let ticked = ticker.expectation("a position tick while playing") { if case .position(let ms, _) = $0 { ms > 0 } else { false } }
        await fulfillment(of: [ticked], timeout: Patience.seconds(30))

        let second = recorder.expectation("the second track") { if case .track(index: 1, _, _, _) = $0 { true } else { false } }
        let moved = try await recorder.perform(.next)
        guard case .status(let status) = moved else { return XCTFail("next answered \(moved)") }
        XCTAssertEqual(status.index, 1)
        await fulfillment(of: [second], timeout: Patience.seconds(30))

        do {
            _ = try await recorder.perform(.play(.index(99)))
            XCTFail("playing a track the queue does not have must fail")
        } catch {
            XCTAssertEqual(error.code, .rejected)
        }

        server.setFault(.status(503), forPathPrefix: "/search")
        var catalogFailure: ControlError?
        do {
            _ = try await recorder.perform(.search(CatalogQuery(term: "square roots"), Enqueue()))
            XCTFail("a search the catalog fails must fail")
        } catch {
            catalogFailure = error
        }
        let failure = try XCTUnwrap(catalogFailure)
        XCTAssertEqual(failure.code, .httpStatus)
        let published = recorder.expectation("the catalog failure is published") { $0 == .error(failure.message) }
        await fulfillment(of: [published], timeout: Patience.seconds(10))

        let heard = recorder.events.compactMap(Self.kind)
        XCTAssertEqual(Array(heard.prefix(3)), ["queue", "track", "state"], "\(heard)")
        XCTAssertEqual(heard.filter { $0 == "error" }, ["error"], "\(heard)")
        XCTAssertEqual(heard.last, "error", "\(heard)")
        XCTAssertFalse(recorder.events.contains(where: \.isPosition), "ticks reached an observer that did not ask")
    }

    func testATapOnAResultPlaysItsHeadAndFetchesOnlyTheRest() async throws {
        let recorder = engine.add { RecordingFrontEnd(engine: $0) }
        try startEngine()
        let look = try await recorder.perform(.search(CatalogQuery(term: "sine waves", limit: 7), Enqueue(queue: false)))
        guard case .catalog(let report) = look else { return XCTFail("search answered \(look)") }
        XCTAssertGreaterThanOrEqual(report.results.count, 6)
        let file = { (i: Int) in report.results[i].previewUrl!.components(separatedBy: "/").last! }
        let asked = { [server] (i: Int) in server!.requestLog.filter { $0.contains("/\(file(i)) ") } }
        // The heads of the first four results arrive (no event tells a front-end: the stand-in's log does).
        try await eventuallyAsync(timeout: 30) { () async throws -> Bool in
            let held = headsHeld(try await recorder.perform(.memory))
            return held >= 4 && !(0..<4).contains(where: { asked($0).isEmpty })
        }
        for i in 0..<4 { XCTAssertEqual(asked(i).map { $0.hasSuffix("range=bytes=0-16383") }, [true], "result \(i): \(asked(i))") }
        XCTAssertEqual(asked(5), [], "only the first K results")

        let playing = recorder.expectation("result 3 plays") { if case .state(.playing, index: 3, _) = $0 { true } else { false } }
        var tap = Enqueue(play: false)
        tap.start = 3
        let before = recorder.events.count
        guard case .added(let added) = try await recorder.perform(.add(.tracks(report.results), tap)) else { return XCTFail("add answered otherwise") }
        XCTAssertEqual(added.ids.count, report.results.count)
        await fulfillment(of: [playing], timeout: Patience.seconds(30))
        let queueEvents = recorder.events.dropFirst(before).filter { if case .queue = $0 { true } else { false } }
        XCTAssertEqual(queueEvents.count, 1, "one change: no moment when the queue is empty: \(queueEvents)")
        // Its whole download, then the neighbours' (the one before had a head too): no byte twice.
        await eventuallyAsync(timeout: 30) { asked(3).count >= 2 && asked(2).count >= 2 }
        XCTAssertEqual(asked(3).map { $0.components(separatedBy: " range=").last! }, ["bytes=0-16383", "bytes=16384-"])
        XCTAssertEqual(asked(2).map { $0.components(separatedBy: " range=").last! }, ["bytes=0-16383", "bytes=16384-"])
        guard case .memory(let memory) = try await recorder.perform(.memory) else { return XCTFail("memory answered otherwise") }
        XCTAssertEqual(memory.heads, 8)
        let heads = try XCTUnwrap(memory.stores.first { $0.name == "heads" })
        XCTAssertTrue(heads.isWithinBounds, "\(heads)")
    }

    /// previewd-web's audio path (`audio`, Play here) answers from a held head at once, with the
    /// preview's whole size, and the rest chunk by chunk as the widened download brings it (slowed
    /// here), not after the whole is in; every byte as the stand-in serves it.
    func testTheAudioPathAnswersFromAHeadBeforeTheWholeIsIn() async throws {
        let recorder = engine.add { RecordingFrontEnd(engine: $0) }
        try startEngine()
        let look = try await recorder.perform(.search(CatalogQuery(term: "sine waves", limit: 7), Enqueue(queue: false)))
        guard case .catalog(let report) = look else { return XCTFail("search answered \(look)") }
        try await eventuallyAsync(timeout: 30) { () async throws -> Bool in headsHeld(try await recorder.perform(.memory)) >= 4 }
        let url = try XCTUnwrap(report.results[1].previewUrl)
        let file = try Data(contentsOf: server.previewsDirectory.appendingPathComponent(try XCTUnwrap(URL(string: url)).lastPathComponent))
        server.setFault(.throttle(bytesPerSecond: 16 << 10), forPathPrefix: String(url.dropFirst(server.baseURL.count)))
        guard case .added(let added) = try await recorder.perform(.add(.tracks(report.results), Enqueue(play: false))) else {
            return XCTFail("add answered otherwise")
        }
        var got: [UInt8] = [], firstCount: Int?
        repeat {
            guard case .audioFile(let chunk) = try await recorder.perform(.audioFile(item: added.ids[1], offset: got.count)) else {
                return XCTFail("audio answered otherwise")
            }
            XCTAssertEqual(chunk.size, file.count, "every answer knows the whole size")
            XCTAssertEqual(chunk.offset, got.count)
            XCTAssertFalse(chunk.data.isEmpty, "an answer before the end carries bytes")
            firstCount = firstCount ?? chunk.data.count
            got += chunk.data
        } while got.count < file.count && !Task.isCancelled
        XCTAssertLessThan(try XCTUnwrap(firstCount), min(ArtworkFileReport.maxChunk, file.count),
                          "the first answer is what was held (the head), not a chunk of the whole preview")
        XCTAssertEqual(got, [UInt8](file))
    }

    /// The heads a `memory` answer says are held with their range in.
    private func headsHeld(_ result: ControlResult) -> Int {
        guard case .memory(let report) = result, let heads = report.stores.first(where: { $0.name == "heads" }) else { return 0 }
        return (heads.bytes ?? 0) / (16 << 10)
    }

    func testTheHubSendsTicksOnlyToObserversThatAskAndForgetsRemovedOnes() {
        let hub = EventHub()
        var interest = 0
        hub.onPositionInterest = { interest += 1 }
        var plain: [ControlEvent] = [], ticked: [ControlEvent] = []
        let quiet = hub.addObserver { plain.append($0) }
        let listener = hub.addObserver(wantsPosition: true) { ticked.append($0) }
        XCTAssertTrue(hub.wantsPosition)
        hub.publish(.position(ms: 1000, durationMs: 30_000))
        hub.publish(.queue(length: 3, version: 1))
        XCTAssertEqual(plain, [.queue(length: 3, version: 1)])
        XCTAssertEqual(ticked, [.position(ms: 1000, durationMs: 30_000), .queue(length: 3, version: 1)])
        hub.setWantsPosition(true, for: quiet)
        hub.setWantsPosition(false, for: listener)
        XCTAssertTrue(hub.wantsPosition)
        hub.removeObserver(quiet)
        XCTAssertFalse(hub.wantsPosition)
        XCTAssertEqual(interest, 3, "a newcomer asking (twice) and the last one leaving")
        hub.publish(.error("gone"))
        XCTAssertEqual(plain.last, .queue(length: 3, version: 1), "a removed observer hears nothing")
        XCTAssertEqual(ticked.last, .error("gone"))
        XCTAssertEqual(hub.observerCount, 1)
    }

    /// The kinds of event the test follows; nil for the others (position, loudness, volume, artwork…).
    private static func kind(_ event: ControlEvent) -> String? {
        switch event {
        case .queue: return "queue"
        case .track: return "track"
        case .state: return "state"
        case .error: return "error"
        default: return nil
        }
    }
}

private extension ControlEvent {
    var isPosition: Bool { if case .position = self { true } else { false } }
}
