import Foundation
import PreviewCore
import PreviewEngine
import PreviewTestSupport
import XCTest

/// The engine as previewd builds it, in-process, over the iTunes stand-in: a player playing
/// through `sequencer`, its loop on a thread of its own once started. For the tests that steer it
/// through a front-end registered as previewd registers its own (`engine.add`).
final class StandInEngine {
    let engine: Engine
    let sequencer: OutputSequencer
    private var loopEnded: XCTestExpectation?

    /// An engine over the stand-in at `baseURL` (its `origin` the one local origin previews may use).
    init(baseURL: String, origin: String, sequencer: OutputSequencer, policy: FetchPolicy = FetchPolicy()) {
        let log = Log(minimum: .error)
        let http = HTTPClient()
        let catalog = ITunesClient(base: URL(string: baseURL)!, callsPerMinute: 600, http: http)
        let fetcher = PreviewFetcher(localOrigin: origin, http: http)
        self.sequencer = sequencer
        engine = Engine(log: log) { loop, events in
            Player(loop: loop, catalog: catalog, fetcher: fetcher, sequencer: sequencer, policy: policy, events: events, log: log)
        }
    }

    /// Runs the engine's loop on a thread of its own and starts the engine (player, then front-ends).
    func start(in test: XCTestCase) throws {
        let ended = test.expectation(description: "the engine loop returned")
        loopEnded = ended
        startThread(named: "test.engine") { [loop = engine.loop] in
            loop.run()
            ended.fulfill()
        }
        try engine.start()
    }

    /// Shuts the engine down (when it was started) and waits for its loop; closes the output.
    func stop(in test: XCTestCase) {
        if let loopEnded {
            engine.loop.execute { [engine] in engine.shutDown("the test is over") }
            test.wait(for: [loopEnded], timeout: Patience.seconds(60))
        }
        sequencer.close()
    }
}
