#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// The control socket's protocol on the `LineServer`: one JSON object per line. Each request goes
/// to `handler` (the engine, through `ControlFrontEnd`) as a task on the loop and its answer line
/// comes back in request order; a line that is no request is answered here. `subscribe` makes the
/// connection an event stream as well: events (`{"event": …}`) come as they happen, between the
/// answers (`{"id": …, "ok": …}`) to the requests it may still send.
public final class ControlProtocol: LineProtocol, @unchecked Sendable {   // confined to the engine loop's thread
    /// The JSON socket's bounds (docs/PROTOCOL.md, "Framing").
    public let rules: LineRules
    private let loop: EngineLoop
    private let events: EventHub?
    private let handler: @Sendable (ControlRequest) async -> [UInt8]
    /// The last event encoded: the hub hands each event to every subscriber in turn, and it is
    /// encoded once for all of them.
    private var encoded: (event: ControlEvent, line: [UInt8]?)?
    /// Subscribed connections.
    public private(set) var subscriberCount = 0

    /// What a subscribed connection holds: its own registration with the hub, which sends it
    /// position ticks only if it asked (the hub is the one place ticks are filtered).
    private final class Subscription {
        let observer: EventHub.Observer
        init(observer: EventHub.Observer) { self.observer = observer }
    }

    /// The protocol, answering with `handler` (the answer's line) on `loop`; `subscribe` streams
    /// `events`. `rules` are the JSON socket's unless a test says otherwise.
    public init(loop: EngineLoop, events: EventHub? = nil, rules: LineRules = LineRules(),
                handler: @escaping @Sendable (ControlRequest) async -> [UInt8]) {
        self.loop = loop
        self.events = events
        self.rules = rules
        self.handler = handler
    }

    public func received(_ line: [UInt8], on connection: LineConnection) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return connection.answer([]) }
        guard let request = try? JSONDecoder().decode(ControlRequest.self, from: Data(line)) else {
            return connection.answer(Self.badRequest(line))
        }
        if request.cmd == ControlVerb.Name.subscribe.rawValue { return subscribe(connection, request) }
        let handler = self.handler
        Task(executorPreference: loop) {
            let answer = await handler(request)
            connection.answer(answer)   // back on the loop: the task prefers it
        }
    }

    public func farewell(_ reason: LineServer.Closing, for connection: LineConnection) -> [UInt8] {
        switch reason {
        case .tooLong(let limit):
            return ControlReply.failure(id: nil, ControlError(.tooLong, "request line longer than \(limit) bytes; closing"))
        case .stalled(let seconds):
            return ControlReply.failure(id: nil, ControlError(.badRequest, "request line not finished within \(Int(seconds)) s; closing"))
        case .full:
            return ControlReply.failure(id: nil, ControlError(.internal, "too many clients"))
        }
    }

    public func disconnected(_ connection: LineConnection) {
        guard let subscription = connection.context as? Subscription else { return }
        connection.context = nil
        subscriberCount -= 1
        events?.removeObserver(subscription.observer)
    }

    /// The connection hears events from now on (position ticks when asked); asked again, it changes
    /// whether it gets ticks. It still takes requests.
    private func subscribe(_ connection: LineConnection, _ request: ControlRequest) {
        let position: Bool
        do {
            guard case .subscribe(let wanted) = try ControlCommand(request) else { return connection.answer([]) }
            position = wanted
        } catch {
            return connection.answer(ControlReply.failure(id: request.id, error))
        }
        guard let events else {
            return connection.answer(ControlReply.failure(id: request.id, ControlError(.internal, "events are not available")))
        }
        let subscription: Subscription
        if let existing = connection.context as? Subscription {
            subscription = existing
        } else {
            let observer = events.addObserver { [unowned self, unowned connection] event in deliver(event, to: connection) }
            subscription = Subscription(observer: observer)
            connection.context = subscription
            connection.isWaiting = true   // never idle: it waits for events
            subscriberCount += 1
        }
        connection.answer(ControlReply.success(id: request.id, Subscribed(subscribed: true, position: position)))
        // After the answer: a newcomer that asks gets a tick at once.
        events.setWantsPosition(position, for: subscription.observer)
    }

    private struct Subscribed: Encodable {
        var subscribed: Bool
        var position: Bool
    }

    /// Writes `event` as one line to a subscriber; one that has fallen too far behind is cut off
    /// by the server.
    private func deliver(_ event: ControlEvent, to connection: LineConnection) {
        if encoded?.event != event { encoded = (event, JSONLine.encode(event)) }
        if let line = encoded?.line { connection.push(line) }
    }

    /// The answer to a line that is not a request: with the line's id when it has one, so the
    /// client can match the error.
    static func badRequest(_ line: [UInt8]) -> [UInt8] {
        let json = try? JSONDecoder().decode(JSONValue.self, from: Data(line))
        let message = json == nil ? "not JSON: expected one object per line"
            : "not a request object: expected {\"id\": N, \"cmd\": \"...\", \"args\": {...}}"
        return ControlReply.failure(id: json?["id"]?.intValue, ControlError(.badRequest, message))
    }
}
