import PreviewCore
import PreviewEngine
import XCTest

/// A front-end made for tests, registered over the seam as previewd registers its own: it performs
/// commands and records the events it hears (position ticks only when it asks), never the engine.
final class RecordingFrontEnd: FrontEnd, @unchecked Sendable {   // `heard` locked; `observer` the loop's
    private typealias Wait = (matches: (ControlEvent) -> Bool, expectation: XCTestExpectation)
    private let engine: EngineHandle
    private let wantsPosition: Bool
    private let heard = Locked<(events: [ControlEvent], waits: [Wait])>(([], []))
    private var observer: EventHub.Observer?

    init(engine: EngineHandle, wantsPosition: Bool = false) {   // registered: `engine.add { RecordingFrontEnd(engine: $0) }`
        self.engine = engine
        self.wantsPosition = wantsPosition
    }

    func start() {
        engine.loop.execute { [self] in
            observer = engine.events.addObserver(wantsPosition: wantsPosition) { [unowned self] in record($0) }
        }
    }

    func stop() { observer.map(engine.events.removeObserver) }

    /// Carries out `command` as a client's.
    func perform(_ command: ControlCommand) async throws(ControlError) -> ControlResult { try await engine.perform(command) }

    /// The events heard so far, in order.
    var events: [ControlEvent] { heard.withLock { $0.events } }

    /// Fulfilled by the first event heard that `matches`, already or from now on.
    func expectation(_ description: String, _ matches: @escaping (ControlEvent) -> Bool) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: description)
        heard.withLock { $0.events.contains(where: matches) ? expectation.fulfill() : $0.waits.append((matches, expectation)) }
        return expectation
    }

    private func record(_ event: ControlEvent) {
        let met = heard.withLock { heard -> [Wait] in
            heard.events.append(event)
            let met = heard.waits.filter { $0.matches(event) }
            heard.waits.removeAll { $0.matches(event) }
            return met
        }
        met.forEach { $0.expectation.fulfill() }
    }
}
