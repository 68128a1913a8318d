import CCurl
import Glibc
import PreviewCore

/// What one exchange reports, on the client's thread, in order: the head, the body in pieces, the end.
public protocol HTTPResponseHandler: AnyObject, Sendable {
    /// The final response's head (after redirects); false stops the exchange.
    func receive(head: HTTPHead) -> Bool
    /// The next piece of the body; false stops the exchange.
    func receive(body: UnsafeRawBufferPointer) -> Bool
    /// The end, exactly once: nil when the body is complete.
    func finish(_ failure: HTTPFailure?)
}

/// previewd's HTTP client (HTTP/1.1, and HTTP/2 where a server offers it): libcurl's multi interface
/// driven by one thread, the way MPD's curl input does it. Catalog calls, previews and artwork share
/// its connections, DNS answers and TLS sessions, kept warm for `settings.keepWarmSeconds`; a
/// connection can be opened ahead of need (`preconnect`). A cancel reaches the thread at once
/// (curl_multi_wakeup), whatever the transfer is waiting for.
///
/// libcurl instead of URLSession: URLSession needs Foundation and FoundationNetworking, about
/// 15 MiB of resident memory in a daemon that otherwise lives on FoundationEssentials
/// (docs/PERFORMANCE.md); URLSession on Linux is built on this same libcurl.
public final class HTTPClient: Sendable {
    private let loop: CurlLoop
    /// When each host last answered: tells an outage from one host's trouble.
    public let answers = NetworkAnswers()

    /// A client with its own thread; the thread ends with `shutdown` or when the client is released.
    public init(settings: HTTPClientSettings = HTTPClientSettings()) {
        loop = CurlLoop(settings: settings)
        startThread(named: "previewd.http") { [loop] in loop.run() }
    }

    deinit { loop.stop() }

    /// Starts `request`; `handler` hears of it on the client's thread. The handle cancels it.
    @discardableResult
    public func start(_ request: HTTPRequest, handler: any HTTPResponseHandler) -> HTTPExchangeHandle {
        let exchange = HTTPExchange(request: request, handler: handler, answers: answers)
        loop.post(.start(exchange))
        return HTTPExchangeHandle(exchange: exchange, loop: loop)
    }

    /// Opens a connection (TCP and TLS) to `url`'s origin ahead of need, with a HEAD of its root, so
    /// the request that follows soon finds it ready. Nothing when one is likely open already or a
    /// transfer there is under way; never to an address `localOrigin`'s policy refuses (the check
    /// every connection passes). A probe that fails or hangs delays nothing.
    public func preconnect(_ url: String, localOrigin: String?) {
        guard let origin = WarmPathsCore.origin(of: url) else { return }
        var request = HTTPRequest(url: origin + "/")
        request.headOnly = true
        request.maxRedirects = 0
        request.stallTimeout = 10
        request.totalTimeout = 15
        request.localOrigin = localOrigin
        loop.post(.preconnect(request))
    }

    /// Runs `body` on the client's thread after `seconds` (a resume's wait between attempts), with no
    /// thread or timer of its own: the client's poll wakes for it. When the client shuts down first,
    /// `body` runs then (early), so nothing waits for a timer that will never fire.
    public func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
        loop.post(.after(MonotonicClock.nanoseconds() + UInt64(max(0, seconds) * 1e9), body))
    }

    /// Suspends the calling task for `seconds` on the client's clock (the runtime's own sleep would
    /// start a timer thread of its pool).
    public func sleep(seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            after(seconds) { continuation.resume() }
        }
    }

    /// Cancels every exchange and ends the thread; returns when every handler has heard `.cancelled`
    /// (so nothing of the client is still running when the process exits).
    public func shutdown() {
        loop.stop()
        loop.waitUntilEnded()
    }
}

/// Cancels one exchange.
public struct HTTPExchangeHandle: Sendable {
    fileprivate let exchange: HTTPExchange
    fileprivate let loop: CurlLoop

    /// Stops the exchange; its handler hears `.cancelled` unless it had already ended.
    public func cancel() {
        exchange.markCancelled()
        loop.post(.cancel(exchange))
    }
}
