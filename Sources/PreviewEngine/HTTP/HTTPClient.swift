import CCurl
import Glibc

/// What one exchange reports, on the client's thread, in order: the head, the body in pieces, the end.
public protocol HTTPResponseHandler: AnyObject, Sendable {
    /// The final response's head (after redirects); false stops the exchange.
    func receive(head: HTTPHead) -> Bool
    /// The next piece of the body; false stops the exchange.
    func receive(body: UnsafeRawBufferPointer) -> Bool
    /// The end, exactly once: nil when the body is complete.
    func finish(_ failure: HTTPFailure?)
}

/// previewd's HTTP/1.1 (and HTTPS) client: libcurl's multi interface driven by one thread, the way
/// MPD's curl input does it. Connections are kept alive and reused between requests to one host;
/// a cancel reaches the thread at once (curl_multi_wakeup), whatever the transfer is waiting for.
///
/// libcurl instead of URLSession: URLSession needs Foundation and FoundationNetworking, about
/// 15 MiB of resident memory in a daemon that otherwise lives on FoundationEssentials
/// (docs/PERFORMANCE.md); URLSession on Linux is built on this same libcurl.
public final class HTTPClient: Sendable {
    private let loop: CurlLoop

    /// A client with its own thread; the thread ends with `shutdown` or when the client is released.
    public init() {
        loop = CurlLoop()
        startThread(named: "previewd.http") { [loop] in loop.run() }
    }

    deinit { loop.stop() }

    /// Starts `request`; `handler` hears of it on the client's thread. The handle cancels it.
    @discardableResult
    public func start(_ request: HTTPRequest, handler: any HTTPResponseHandler) -> HTTPExchangeHandle {
        let exchange = HTTPExchange(request: request, handler: handler)
        loop.post(.start(exchange))
        return HTTPExchangeHandle(exchange: exchange, loop: loop)
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

/// The multi handle and the exchanges on it; everything but `post` and `stop` runs on the loop's thread.
final class CurlLoop: @unchecked Sendable {   // `mailbox` and `stopping` guarded by `lock`
    enum Message {
        case start(HTTPExchange), cancel(HTTPExchange)
        /// Run the closure at the deadline (monotonic nanoseconds).
        case after(UInt64, @Sendable () -> Void)
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
    private let multi: UnsafeMutableRawPointer
    private let lock = Lock()
    private var mailbox: [Message] = []
    private var stopping = false
    private var finished = false   // the thread has left `run`; the multi handle is gone
    private let ended = Condition()   // guards `hasEnded`, broadcast when `run` returns
    private var hasEnded = false
    private var active: [UnsafeMutableRawPointer: HTTPExchange] = [:]   // loop thread only; by easy handle
    private var timers: [(deadline: UInt64, body: @Sendable () -> Void)] = []   // loop thread only; by deadline

    init() {
        _ = Self.globalInit
        multi = curl_multi_init()
        ccurl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 4)
    }

    func post(_ message: Message) {
        // The wake-up is sent holding the lock, so the multi handle cannot be freed under it.
        let ended = lock.withLock { () -> Bool in
            if !finished {
                mailbox.append(message)
                curl_multi_wakeup(multi)
            }
            return finished
        }
        if ended { Self.settle(message) }   // nothing will run it
    }

    /// Ends a message the loop will not carry out: a start is cancelled, a timer runs.
    private static func settle(_ message: Message) {
        switch message {
        case .start(let exchange): exchange.finish(.cancelled)
        case .after(_, let body): body()
        case .cancel: break
        }
    }

    func stop() {
        lock.withLock {
            stopping = true
            if !finished { curl_multi_wakeup(multi) }
        }
    }

    func run() {
        while true {
            let (messages, stop) = lock.withLock { () -> ([Message], Bool) in
                defer { mailbox.removeAll() }
                return (mailbox, stopping)
            }
            for message in messages {
                switch message {
                case .start(let exchange) where stop || exchange.isCancelled: exchange.finish(.cancelled)
                case .start(let exchange): add(exchange)
                case .cancel(let exchange):
                    if let easy = exchange.easy, active[easy] != nil { end(exchange, .cancelled) }
                case .after(let deadline, let body):
                    timers.insert((deadline, body), at: timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex)
                }
            }
            if stop { break }
            let now = MonotonicClock.nanoseconds()
            while let first = timers.first, first.deadline <= now {
                timers.removeFirst()
                first.body()
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            // No timer thread: curl shortens the wait to its next timeout when a transfer needs one,
            // `after` bounds it by the first deadline, and `post`/`stop` end it with curl_multi_wakeup.
            // Idle, the thread sleeps.
            let untilTimer = timers.first.map { Int32(clamping: ($0.deadline - min($0.deadline, now)) / 1_000_000 + 1) }
            curl_multi_poll(multi, nil, 0, untilTimer ?? Int32.max, nil)
        }
        for exchange in Array(active.values) { end(exchange, .cancelled) }
        let late = lock.withLock { () -> [Message] in
            finished = true
            defer { mailbox.removeAll() }
            return mailbox
        }
        // Timers not yet due run now, early: a sleeper is not left waiting on a loop that has ended.
        let pending = timers.map { Message.after($0.deadline, $0.body) }
        timers = []
        (pending + late).forEach(Self.settle)
        curl_multi_cleanup(multi)
        ended.lock()
        hasEnded = true
        ended.broadcast()
        ended.unlock()
    }

    /// Waits for `run` to return (after `stop`).
    func waitUntilEnded() {
        ended.lock()
        while !hasEnded { ended.wait(seconds: 1) }
        ended.unlock()
    }

    /// Configures a new easy handle for `exchange` and puts it on the multi handle.
    private func add(_ exchange: HTTPExchange) {
        guard let easy = curl_easy_init() else { exchange.finish(.transport("libcurl could not make a handle")); return }
        exchange.easy = easy
        let request = exchange.request
        let me = Unmanaged.passUnretained(exchange).toOpaque()
        ccurl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        ccurl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_set_string(easy, CURLOPT_USERAGENT, "previewd")
        ccurl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)   // redirects are followed here, each one checked
        let stall = max(request.stallTimeout, 0.001)
        ccurl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(stall * 1000))
        ccurl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)                     // no byte for…
        ccurl_set_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(stall.rounded(.up))))   // …this long fails
        if let total = request.totalTimeout { ccurl_set_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(total * 1000))) }
        if request.acceptCompression { ccurl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "") }
        if let caFile = request.caFile { ccurl_set_string(easy, CURLOPT_CAINFO, caFile) }
        if request.rangeStart > 0 { ccurl_set_string(easy, CURLOPT_RANGE, "\(request.rangeStart)-") }
        ccurl_set_pointer(easy, CURLOPT_ERRORBUFFER, exchange.errorText)
        ccurl_set_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderLine)
        ccurl_set_pointer(easy, CURLOPT_HEADERDATA, me)
        ccurl_set_callback(easy, CURLOPT_WRITEFUNCTION, curlBodyPiece)
        ccurl_set_pointer(easy, CURLOPT_WRITEDATA, me)
        ccurl_set_opensocket(easy, curlOpenSocket)
        ccurl_set_pointer(easy, CURLOPT_OPENSOCKETDATA, me)
        active[easy] = exchange
        send(exchange, to: request.url)
    }

    /// (Re)starts `exchange`'s easy handle on `url`: the first request and every redirect.
    private func send(_ exchange: HTTPExchange, to url: String) {
        guard let easy = exchange.easy else { return }
        exchange.resetForResponse(url: url)
        ccurl_set_string(easy, CURLOPT_URL, url)
        if curl_multi_add_handle(multi, easy) != CURLM_OK {
            end(exchange, .transport("libcurl refused the request for \(url.prefix(200))"), attached: false)
        }
    }

    /// Hands finished transfers to their exchanges: a redirect is followed, the rest end.
    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let exchange = active[easy] else { continue }
            let code = message.pointee.data.result
            if exchange.isCancelled || exchange.stoppedByHandler {
                end(exchange, .cancelled)
            } else if code == CURLE_OK, exchange.isRedirect {
                followRedirect(exchange)
            } else if code == CURLE_OK {
                if !exchange.headDelivered, !exchange.deliverHead() { end(exchange, .cancelled); continue }
                end(exchange, nil)
            } else {
                let why = exchange.errorDescription(code)
                end(exchange, code == CURLE_OPERATION_TIMEDOUT ? .timedOut(why) : .transport(why))
            }
        }
    }

    private func followRedirect(_ exchange: HTTPExchange) {
        guard let easy = exchange.easy else { return }
        let target = ccurl_info_string(easy, CURLINFO_REDIRECT_URL).map { String(cString: $0) }
        exchange.redirects += 1
        let downgrade = exchange.currentURL.lowercased().hasPrefix("https:") && target?.lowercased().hasPrefix("http:") == true
        guard let target, exchange.redirects <= exchange.request.maxRedirects, !downgrade,
              exchange.request.allowRedirect(target) else {
            let why = exchange.redirects > exchange.request.maxRedirects
                ? "more than \(exchange.request.maxRedirects) redirects"
                : downgrade ? "a redirect from https to http"
                : "a redirect to \(target.map { String($0.prefix(200)) } ?? "nowhere") that previewd does not follow"
            end(exchange, .redirectRefused(why))
            return
        }
        curl_multi_remove_handle(multi, easy)
        send(exchange, to: target)
    }

    /// Takes `exchange` off the multi handle, frees its handle and tells its handler.
    private func end(_ exchange: HTTPExchange, _ failure: HTTPFailure?, attached: Bool = true) {
        guard let easy = exchange.easy else { return }
        if attached { curl_multi_remove_handle(multi, easy) }
        curl_easy_cleanup(easy)
        exchange.easy = nil
        active[easy] = nil
        exchange.finish(failure)
    }
}

// libcurl's callbacks, on the loop's thread. Returning a count other than the one given aborts the transfer.

/// Every connection libcurl makes, after name resolution: the address is checked (`AddressPolicy`)
/// before a socket is made for it.
private func curlOpenSocket(_ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
                            _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(context).takeUnretainedValue()
    var ip = [UInt8](repeating: 0, count: 16)
    let length = Int(ccurl_sockaddr_ip(address, &ip))
    guard length > 0 else {
        exchange.refusedConnection = "refused to connect: not an IP address"
        return CURL_SOCKET_BAD
    }
    if let why = exchange.refusal(ip: Array(ip.prefix(length))) {
        exchange.refusedConnection = why
        return CURL_SOCKET_BAD
    }
    return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
}

private func curlHeaderLine(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(context!).takeUnretainedValue()
    let line = UnsafeRawBufferPointer(start: data, count: size * count)
    return exchange.headerLine(line) ? size * count : 0
}

private func curlBodyPiece(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(context!).takeUnretainedValue()
    return exchange.bodyPiece(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}
