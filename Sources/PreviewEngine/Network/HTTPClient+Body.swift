/// A whole response, for answers small enough to hold (the catalog's JSON).
public struct HTTPResponse: Sendable {
    /// The final response's head.
    public var head: HTTPHead
    /// The body, at most the limit asked for.
    public var body: [UInt8]
    /// True when the body went past the limit: `body` is not all of it and the exchange was stopped.
    public var exceededLimit: Bool
}

extension HTTPClient {
    /// Sends `request` and collects its body, stopping past `limit` bytes. Cancelling the calling
    /// task cancels the exchange.
    public func response(to request: HTTPRequest, limit: Int) async throws(HTTPFailure) -> HTTPResponse {
        let collector = BodyCollector(limit: limit)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.begin(continuation) { start(request, handler: collector) }
            }
        } onCancel: {
            collector.cancel()
        }
        return try result.get()
    }
}

/// Gathers one body for `HTTPClient.response(to:limit:)` and resumes its caller once, at the end.
private final class BodyCollector: HTTPResponseHandler, @unchecked Sendable {   // head, body: the HTTP thread only; `waiting` is Locked
    private let limit: Int
    private var head = HTTPHead(status: 0)   // the client's thread only
    private var body: [UInt8] = []           // the client's thread only
    private var exceeded = false             // the client's thread only
    /// Who waits for the answer, the exchange, and whether the caller gave up.
    private struct Waiting {
        var continuation: CheckedContinuation<Result<HTTPResponse, HTTPFailure>, Never>?
        var exchange: HTTPExchangeHandle?
        var cancelled = false
    }
    private let waiting = Locked(Waiting())

    init(limit: Int) { self.limit = limit }

    func begin(_ continuation: CheckedContinuation<Result<HTTPResponse, HTTPFailure>, Never>,
               start: () -> HTTPExchangeHandle) {
        waiting.withLock { $0.continuation = continuation }
        let handle = start()
        // A cancel that came before the handle was stored could not reach the exchange: do it now.
        let cancelNow = waiting.withLock { w -> Bool in
            w.exchange = handle
            return w.cancelled
        }
        if cancelNow { handle.cancel() }
    }

    func cancel() {
        waiting.withLock { w -> HTTPExchangeHandle? in
            w.cancelled = true
            return w.exchange
        }?.cancel()
    }

    func receive(head: HTTPHead) -> Bool {
        self.head = head
        if let length = head.contentLength, length <= limit { body.reserveCapacity(length) }
        return true
    }

    func receive(body piece: UnsafeRawBufferPointer) -> Bool {
        guard body.count + piece.count <= limit else {
            exceeded = true
            return false
        }
        body.append(contentsOf: piece)
        return true
    }

    func finish(_ failure: HTTPFailure?) {
        let result: Result<HTTPResponse, HTTPFailure>
        if exceeded {
            result = .success(HTTPResponse(head: head, body: body, exceededLimit: true))
        } else if let failure {
            result = .failure(failure)
        } else {
            result = .success(HTTPResponse(head: head, body: body, exceededLimit: false))
        }
        waiting.withLock { w in
            defer { w.continuation = nil }
            return w.continuation
        }?.resume(returning: result)
    }
}
