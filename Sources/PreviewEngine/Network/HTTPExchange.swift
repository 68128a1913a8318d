import CCurl
import Glibc
import Synchronization
import PreviewCore

/// One request's state on `CurlLoop`'s thread: its easy handle, the response head being read, and
/// the redirects so far. Only `isCancelled` is read from other threads.
final class HTTPExchange: @unchecked Sendable {   // a curl easy handle and its state: the HTTP thread only; `cancelled` atomic
    let request: HTTPRequest
    /// Released at the end: a handler usually holds the exchange's handle, and so this exchange.
    private var handler: (any HTTPResponseHandler)?
    var easy: UnsafeMutableRawPointer?                 // loop thread; nil before start and after the end
    var redirects = 0                        // loop thread
    /// The URL of the request under way (the first, or the redirect being followed).
    private(set) var currentURL = ""         // loop thread
    /// Why a connection was refused by the address check, for the error.
    var refusedConnection: String?           // loop thread
    /// CURLOPT_ERRORBUFFER: libcurl's own words for a failure.
    let errorText: UnsafeMutablePointer<CChar>
    private(set) var headDelivered = false   // loop thread
    private(set) var isRedirect = false      // loop thread: the response is a 3xx with a Location
    private(set) var stoppedByHandler = false
    private var hasLocation = false
    private var retryAfter: Int?
    private var contentRangeStart: Int?
    private var contentRangeTotal: Int?
    /// The last response said its connection closes after it (`Connection: close`, or HTTP/1.0).
    private(set) var closesConnection = false   // loop thread
    private let cancelled = Atomic<Bool>(false)
    /// When the exchange was started, and when its connection was ready, TCP and TLS done, its
    /// request about to go out (loop thread; monotonic nanoseconds).
    var startedAt: UInt64 = 0
    var connectedAt: UInt64?             // of the request under way (the first, or a redirect's)
    /// When the request under way must have a connection, or it ends (`CurlLoop`'s watchdog).
    var connectBy: UInt64?                   // loop thread
    /// It may wait for a connection being made to its origin, to multiplex on it (CURLOPT_PIPEWAIT).
    var waitsForMultiplexing = true          // loop thread
    /// It raced its origin's probe and was started again on the probe's connection.
    var movedToWarm = false
    /// A piece of the body has arrived.
    private var bodyStarted = false

    /// Told of every answer (`NetworkAnswers`); nil for a probe.
    private let answers: NetworkAnswers?

    init(request: HTTPRequest, handler: any HTTPResponseHandler, answers: NetworkAnswers? = nil) {
        self.request = request
        self.answers = answers
        self.handler = handler
        LiveObjects.httpExchanges.created()
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorText.deallocate()
        LiveObjects.httpExchanges.destroyed()
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Tells the handler how the exchange ended, once, and lets go of it.
    func finish(_ failure: HTTPFailure?) {
        let handler = self.handler
        self.handler = nil
        handler?.finish(failure)
    }

    func markCancelled() { cancelled.store(true, ordering: .releasing) }

    /// Before each request of the exchange (the first and each redirect).
    func resetForResponse(url: String) {
        currentURL = url
        refusedConnection = nil
        headDelivered = false
        isRedirect = false
        hasLocation = false
        retryAfter = nil
        contentRangeStart = nil
        contentRangeTotal = nil
        errorText[0] = 0
    }

    /// One header line (libcurl passes the status line, each field, and the blank line that ends them).
    /// False aborts the transfer.
    func headerLine(_ line: UnsafeRawBufferPointer) -> Bool {
        if isCancelled { return false }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {   // a new response: an interim 1xx, or the next one after a redirect
            closesConnection = text.hasPrefix("HTTP/1.0")
            hasLocation = false
            retryAfter = nil
            contentRangeStart = nil
            contentRangeTotal = nil
            return true
        }
        if text == "\r\n" || text == "\n" { return endOfHead() }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingWhitespace()
        if name == "location" { hasLocation = !value.isEmpty }
        if name == "connection" {
            let tokens = value.lowercased()
            if tokens.contains("close") { closesConnection = true } else if tokens.contains("keep-alive") { closesConnection = false }
        }
        if name == "retry-after" { retryAfter = RetryAfter.seconds(value, now: Int(time(nil))) }   // seconds or an HTTP-date
        if name == "content-range", value.lowercased().hasPrefix("bytes ") {
            contentRangeStart = Int(value.dropFirst(6).prefix { $0 != "-" })
            contentRangeTotal = value.split(separator: "/").last.flatMap { Int($0) }
        }
        return true
    }

    private func endOfHead() -> Bool {
        guard let easy else { return false }
        let status = ccurl_info_long(easy, CURLINFO_RESPONSE_CODE)
        if status < 200 { return true }   // 100 Continue and friends: the real head follows
        if let answers, let host = PreviewURLPolicy.origin(of: currentURL) { answers.answered(host) }
        if (300..<400).contains(status), status != 304, hasLocation {
            isRedirect = true             // its body is dropped; the loop follows the Location
            return true
        }
        return deliverHead()
    }

    /// Gives the handler the head of the final response; false when it wants no body.
    func deliverHead() -> Bool {
        guard let easy else { return false }
        headDelivered = true
        let length = ccurl_info_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        let type = ccurl_info_string(easy, CURLINFO_CONTENT_TYPE).map { String(cString: $0) }
        let head = HTTPHead(status: ccurl_info_long(easy, CURLINFO_RESPONSE_CODE),
                            contentLength: length >= 0 ? Int(length) : nil,
                            mediaType: type.map { $0.split(separator: ";").first.map(String.init) ?? $0 }?
                                .trimmingWhitespace().lowercased(),
                            retryAfterSeconds: retryAfter, rangeStart: contentRangeStart, rangeTotal: contentRangeTotal)
        if handler?.receive(head: head) != true { stoppedByHandler = true }
        return !stoppedByHandler
    }

    /// A piece of the body. False aborts the transfer.
    func bodyPiece(_ piece: UnsafeRawBufferPointer) -> Bool {
        if isCancelled { return false }
        if isRedirect { return true }
        if !bodyStarted {
            bodyStarted = true
            if request.purpose == .preview, StartTimeline.shared.follows(self) {
                StartTimeline.shared.mark(.firstByte, at: MonotonicClock.nanoseconds(), preview: self)
            }
        }
        if !headDelivered, !deliverHead() { return false }
        if piece.isEmpty { return true }
        if handler?.receive(body: piece) != true { stoppedByHandler = true }
        return !stoppedByHandler
    }

    /// Why previewd will not connect to `ip` (4 or 16 bytes) for the current URL; nil when it may.
    /// Any public address may be reached; a non-public one only for the request's `localOrigin`.
    func refusal(ip: [UInt8]) -> String? {
        let reason = ip.count == 4 ? AddressPolicy.nonPublicReason(ipv4: ip) : AddressPolicy.nonPublicReason(ipv6: ip)
        guard let reason else { return nil }
        if let local = request.localOrigin, PreviewURLPolicy.origin(of: currentURL) == local { return nil }
        let text = ip.count == 4 ? AddressPolicy.text(ipv4: ip) : AddressPolicy.text(ipv6: ip)
        return "refused to connect to \(text), \(reason)"
    }

    /// libcurl's description of a failed transfer.
    func errorDescription(_ code: CURLcode) -> String {
        if let refusedConnection { return refusedConnection }
        let detail = String(cString: errorText)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }
}
