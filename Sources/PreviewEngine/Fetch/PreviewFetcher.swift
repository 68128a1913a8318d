#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Streams previews over HTTP into `PreviewBytes` as the bytes arrive, so decoding starts when the
/// header is in, long before the download ends. One `HTTPClient` for every preview: consecutive
/// previews from one host reuse its keep-alive connection.
///
/// A connection dropped mid-body is resumed from the last byte received with a Range request
/// (a few times, with growing waits); a server that ignores Range and sends the whole body again
/// has the bytes already held skipped. At most `maxRedirects` redirects are followed, each checked
/// against the URL policy.
public final class PreviewFetcher: Sendable {
    /// Waits before each resume attempt; their count is the number of attempts.
    public let resumeBackoff: [Double]
    /// Redirects followed per request.
    public let maxRedirects = 5
    /// A download fails when connecting, or waiting for the next byte, takes this long.
    public let stallTimeout: Double
    /// A download fails when all of it (resumes included) takes longer than this: a server that
    /// trickles bytes cannot hold a slot, and its neighbours' prefetch, forever.
    public let deadline: Double
    /// The one `host:port` on a loopback or private address previews may come from (the API's own,
    /// e.g. a local mirror); nil refuses every local address.
    public let localOrigin: String?
    let http: HTTPClient
    /// Told of each preview asked for, to open its artwork host's connection meanwhile.
    private let warm: WarmPaths?

    /// A fetcher that waits `stallTimeout` for bytes and resumes a dropped download after each of
    /// `resumeBackoff`; previews on local addresses are fetched only from `localOrigin`.
    public init(stallTimeout: Double = 15, deadline: Double = 90, resumeBackoff: [Double] = [0.1, 0.5, 1.5],
                localOrigin: String? = nil, http: HTTPClient = HTTPClient(), warm: WarmPaths? = nil) {
        self.warm = warm
        self.stallTimeout = stallTimeout
        self.deadline = deadline
        self.resumeBackoff = resumeBackoff
        self.localOrigin = localOrigin
        self.http = http
    }

    /// Starts downloading `url` into `bytes`; returns a handle that cancels it. A URL previewd may not
    /// fetch fails `bytes` at once. `headBytes`: only the first bytes, by range request; `bytes`
    /// then holds there (`PreviewBytes.hold`) until the handle's `widen()` fetches the rest.
    @discardableResult
    public func fetch(_ url: String, into bytes: PreviewBytes, headBytes: Int? = nil) -> FetchHandle {
        guard Self.mayFetch(url, localOrigin: localOrigin) else {
            bytes.fail(.refusedURL(url))
            return FetchHandle(transfer: nil, bytes: bytes)
        }
        let transfer = PreviewTransfer(url: url, bytes: bytes, fetcher: self, headEnd: headBytes)
        transfer.startNextAttempt()
        warm?.previewRequested()
        return FetchHandle(transfer: transfer, bytes: bytes)
    }

    /// Cancels every download and ends the HTTP client's thread.
    public func shutdown() { http.shutdown() }

    /// The first, textual check for a preview URL and every redirect it takes: http(s), and a local
    /// address only when it is `localOrigin`. The address actually connected to is checked by the
    /// HTTP client (`HTTPRequest.localOrigin`).
    private static func mayFetch(_ url: String, localOrigin: String?) -> Bool {
        PreviewURLPolicy.isFetchable(url) && PreviewURLPolicy.localAddressReason(url, apiOrigin: localOrigin) == nil
    }

    /// The request for what is still missing of `url` (all of it, or from the first byte not held),
    /// within the `seconds` left before the download's deadline.
    fileprivate func request(_ url: String, from offset: Int, within seconds: Double) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        request.rangeStart = offset
        request.totalTimeout = seconds
        request.stallTimeout = stallTimeout
        request.maxRedirects = maxRedirects
        request.allowRedirect = { [localOrigin] in Self.mayFetch($0, localOrigin: localOrigin) }
        request.localOrigin = localOrigin
        request.purpose = .preview
        return request
    }

    fileprivate func start(_ request: HTTPRequest, handler: PreviewTransfer) -> HTTPExchangeHandle {
        http.start(request, handler: handler)
    }
}

/// One preview's download across its requests (the first and any resumes); the HTTP client's handler
/// for each of them in turn. A head's download asks only for its first bytes and holds there until
/// `widen()`, which asks for the rest from the first byte it lacks.
final class PreviewTransfer: HTTPResponseHandler, @unchecked Sendable {   // attempt counters: the HTTP thread only; `attempt` is Locked
    let url: String
    let bytes: PreviewBytes
    private let fetcher: PreviewFetcher
    // Used on the HTTP client's thread only (one request at a time).
    private var attempts = 0
    private var resumeOffset = 0
    private var skip = 0
    /// The request in flight asked for a head's range only.
    private var askedHead = false
    /// When the request in flight started, and whether its host answered (monotonic nanoseconds).
    private var attemptStartedAt: UInt64 = 0
    private var answered = false

    /// The request in flight, whether the download was cancelled (then no attempt starts), where a
    /// head ends (nil: the whole preview is wanted), whether the head has arrived and the transfer
    /// waits for `widen`, and when the whole download must have ended (monotonic nanoseconds).
    private struct Attempt {
        var exchange: HTTPExchangeHandle?
        var cancelled = false
        var headEnd: Int?
        var holding = false
        var deadline: UInt64
    }
    private let attempt: Locked<Attempt>

    init(url: String, bytes: PreviewBytes, fetcher: PreviewFetcher, headEnd: Int? = nil) {
        self.url = url
        self.bytes = bytes
        self.fetcher = fetcher
        attempt = Locked(Attempt(headEnd: headEnd, deadline: Self.deadline(fetcher)))
    }

    private static func deadline(_ fetcher: PreviewFetcher) -> UInt64 {
        MonotonicClock.nanoseconds() + UInt64(fetcher.deadline * 1e9)
    }

    /// Seconds left before the deadline.
    private var secondsLeft: Double {
        (Double(attempt.withLock { $0.deadline }) - Double(MonotonicClock.nanoseconds())) / 1e9
    }

    /// Sends the request for what is still missing, unless the transfer was cancelled.
    func startNextAttempt() {
        attempt.withLock { attempt in
            guard !attempt.cancelled, bytes.error == nil else { return }
            resumeOffset = bytes.receivedCount
            skip = 0
            let left = (Double(attempt.deadline) - Double(MonotonicClock.nanoseconds())) / 1e9
            guard left > 0 else {
                bytes.fail(.deadline(seconds: Int(fetcher.deadline.rounded())))
                return
            }
            var request = fetcher.request(url, from: resumeOffset, within: left)
            askedHead = attempt.headEnd != nil
            attemptStartedAt = MonotonicClock.nanoseconds()
            answered = false
            if let end = attempt.headEnd {
                guard resumeOffset < end else {   // the head was all there when its connection dropped
                    attempt.holding = true
                    bytes.hold()
                    return
                }
                request.rangeEnd = end - 1
            }
            attempt.exchange = fetcher.start(request, handler: self)
        }
    }

    /// A head's download goes on to the whole preview: now if its range has arrived, else as soon
    /// as it has. The deadline starts again (the head may have waited long to be played).
    func widen() {
        let restart = attempt.withLock { attempt -> Bool in
            guard attempt.headEnd != nil else { return false }
            attempt.headEnd = nil
            attempt.deadline = Self.deadline(fetcher)
            bytes.widen()
            defer { attempt.holding = false }
            return attempt.holding
        }
        if restart { startNextAttempt() }
    }

    func cancel() {
        attempt.withLock { attempt -> HTTPExchangeHandle? in
            attempt.cancelled = true
            return attempt.exchange
        }?.cancel()
    }

    // MARK: HTTPResponseHandler (on the HTTP client's thread)

    func receive(head: HTTPHead) -> Bool {
        answered = true
        switch head.status {
        case 206:
            // The server sends exactly what is missing, or the resume is broken (a cache in between).
            guard head.rangeStart == resumeOffset else {
                bytes.fail(.badResume(asked: resumeOffset, got: head.rangeStart))
                return false
            }
            skip = 0
            if let total = head.rangeTotal, bytes.knownLength == nil { bytes.expect(length: total, reserve: false) }
        case 200..<300:
            skip = resumeOffset               // Range ignored: the whole body again
            askedHead = false                 // a head becomes the whole preview: it is coming anyway
            if head.contentLength != nil { bytes.expect(length: head.contentLength) }
        case 429, 500..<600:
            // The host answered: it is in trouble, not the network.
            bytes.fail(.unreachable(trouble("HTTP \(head.status)", retryAfterSeconds: head.retryAfterSeconds, othersAnswer: true)))
            return false
        default:
            bytes.fail(.httpStatus(head.status, url: url))
            return false
        }
        return bytes.error == nil
    }

    func receive(body: UnsafeRawBufferPointer) -> Bool {
        var piece = body
        if skip > 0 {
            let dropped = min(skip, piece.count)
            piece = UnsafeRawBufferPointer(rebasing: piece[dropped...])
            skip -= dropped
        }
        return piece.isEmpty || bytes.append(piece)
    }

    func finish(_ failure: HTTPFailure?) {
        attempt.withLock { $0.exchange = nil }   // it has ended: its curl state goes now, not with the download
        if failure == .cancelled || bytes.error != nil {
            bytes.fail(.cancelled)   // no-op when it already failed for a reason
            return
        }
        if case .redirectRefused(let why)? = failure {
            bytes.fail(.transport(why))
            return
        }
        if let cause = failure?.transientCause, !answered, bytes.receivedCount == 0 {
            // No answer to the first request: not a drop to resume but a host (or the network)
            // away. The player's schedule tries again (`RetrySchedule`): nothing here retries or wakes.
            // (A drop mid-body is resumed below, a blip bridged with no audible gap.)
            bytes.fail(.unreachable(trouble(cause)))
            return
        }
        let short = bytes.knownLength.map { bytes.receivedCount < $0 } ?? false
        if failure == nil, askedHead, short || bytes.knownLength == nil {
            // The head's range is in: hold there, or go on at once when it was played meanwhile.
            let held = attempt.withLock { attempt -> Bool in
                guard attempt.headEnd != nil else { return false }
                attempt.holding = true
                bytes.hold()
                return true
            }
            if !held { startNextAttempt() }
            return
        }
        guard failure != nil || short else { bytes.finish(); return }
        guard secondsLeft > 0 else {   // the deadline ended it: no resume
            bytes.fail(.deadline(seconds: Int(fetcher.deadline.rounded())))
            return
        }
        // Dropped mid-body: resume from the first missing byte, a few times, with growing waits.
        guard attempts < fetcher.resumeBackoff.count else {
            if let cause = failure?.transientCause { bytes.fail(.unreachable(trouble(cause))); return }
            bytes.fail(failure.map { .transport($0.message) }
                       ?? .truncated(received: bytes.receivedCount, expected: bytes.knownLength ?? 0))
            return
        }
        let wait = fetcher.resumeBackoff[attempts]
        attempts += 1
        fetcher.http.after(wait) { [self] in startNextAttempt() }
    }

    /// The preview server's trouble: `cause`, and whether another host answered since the attempt began.
    private func trouble(_ cause: String, retryAfterSeconds: Int? = nil, othersAnswer: Bool? = nil) -> NetworkTrouble {
        let host = PreviewURLPolicy.origin(of: url) ?? String(url.prefix(100))
        return NetworkTrouble(host: host, service: .previews, cause: cause, retryAfterMs: retryAfterSeconds.map { $0 * 1000 },
                              othersAnswer: othersAnswer ?? fetcher.http.answers.othersAnswered(since: attemptStartedAt, besides: host),
                              atUnixMs: WallClock.unixMilliseconds())
    }
}

/// Cancels one download.
public struct FetchHandle: Sendable {
    fileprivate let transfer: PreviewTransfer?
    /// The bytes the download fills.
    public let bytes: PreviewBytes

    /// Stops the download and fails its bytes with `.cancelled`.
    public func cancel() {
        bytes.cancel()
        transfer?.cancel()
    }

    /// A head's download goes on to the whole preview (nothing for a whole download).
    public func widen() {
        transfer?.widen()
    }
}
