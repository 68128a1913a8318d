import CCurl
import CPreviewLinux
import Glibc
import PreviewCore

/// The multi handle and the exchanges on it; everything but `post` and `stop` runs on the loop's thread.
///
/// Warm paths: every easy handle shares one DNS cache and one TLS session cache (a curl share), and
/// the multi handle keeps one cache of idle connections, so catalog calls, previews and artwork
/// reuse each other's connections (HTTP/2 multiplexes them where the server offers it) and a
/// reconnection resumes its TLS session. Idle connections are closed `keepWarm` seconds after the
/// last transfer ended (one timer, then no wake-up).
///
/// A pre-connect (`preconnect`) opens a connection ahead of need with a HEAD of the origin's root
/// (libcurl never reuses a CURLOPT_CONNECT_ONLY connection, so a request it is). Its connection is
/// a bonus, never a wait: a request never waits for a probe. One that comes when the probe is over
/// finds its connection idle in the cache (when the answer, of any status, kept it). One that comes
/// while the probe is under way starts at once on a connection of its own (without CURLOPT_PIPEWAIT,
/// which would make it wait for the probe's connection to learn whether it multiplexes); if the
/// probe then ends with its connection kept while that request's own connection is still being
/// made (nothing sent yet), the request is started again and takes the probe's. A probe that fails,
/// is closed, reset or never answered has cost nothing.
final class CurlLoop: @unchecked Sendable {   // `mailbox`, `stopping`, `multi` (to wake it) guarded by `lock`
    enum Message {
        case start(HTTPExchange), cancel(HTTPExchange)
        /// Open a connection to the request's origin ahead of need (the request is a probe).
        case preconnect(HTTPRequest)
        /// Run the closure at the deadline (monotonic nanoseconds).
        case after(UInt64, @Sendable () -> Void)
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
    let settings: HTTPClientSettings
    private var multi: UnsafeMutableRawPointer      // swapped (idle connections closed) by the loop thread under `lock`
    private let share: UnsafeMutableRawPointer
    private let lock = Lock()
    private var mailbox: [Message] = []
    private var stopping = false
    private var finished = false   // the thread has left `run`; the multi handle is gone
    private let ended = Condition()   // guards `hasEnded`, broadcast when `run` returns
    private var hasEnded = false
    // The loop thread's own state.
    private var active: [UnsafeMutableRawPointer: HTTPExchange] = [:]   // by easy handle
    private var timers: [(deadline: UInt64, body: @Sendable () -> Void)] = []   // by deadline
    /// Pre-connects under way, by origin (`scheme://host:port`).
    private var probes: [String: HTTPExchange] = [:]
    /// Requests started while their origin's probe was under way, by origin: they may move onto the
    /// probe's connection when it ends (`probeEnded`).
    private var racing: [String: [HTTPExchange]] = [:]
    /// When a transfer to each origin last ended well (its connection is likely idle in the cache).
    private var lastUsed: [String: UInt64] = [:]
    /// When idle connections are to be closed, while nothing runs; and whether that timer is set
    /// (one at a time, however many quiet spells come and go).
    private var idleDeadline: UInt64?
    private var idleTimerSet = false
    /// How long past its connect timeout a request may still be without a connection.
    static let connectionGrace = 5.0

    /// Seconds `request` may wait for a connection before the watchdog ends it: libcurl's connect
    /// timeout (its stall timeout) and the grace.
    private static func connectionLimit(_ request: HTTPRequest) -> Double {
        max(request.stallTimeout, 0.001) + connectionGrace
    }

    init(settings: HTTPClientSettings) {
        _ = Self.globalInit
        self.settings = settings
        multi = Self.makeMulti(settings)
        share = curl_share_init()!
        ccurl_share_set_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        ccurl_share_set_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
    }

    private static func makeMulti(_ settings: HTTPClientSettings) -> UnsafeMutableRawPointer {
        let multi = curl_multi_init()!
        ccurl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maxConnectionsPerHost)
        // Idle connections kept: room for the API's, the CDN's, the artwork's and the chart's.
        // libcurl's own bound is 4 × the transfers under way, so when the heads' transfers end
        // together it would close the oldest idle connection, the API's, and the next search would
        // pay a new handshake.
        ccurl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 16)
        return multi
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
        case .cancel, .preconnect: break
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
                case .start(let exchange): admit(exchange)
                case .cancel(let exchange): cancel(exchange)
                case .preconnect(let request) where !stop: preconnect(request)
                case .preconnect: break
                case .after(let deadline, let body): schedule(deadline, body)
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
            let connectBy = watchConnections(now: MonotonicClock.nanoseconds())
            // No timer thread: curl shortens the wait to its next timeout when a transfer needs one,
            // `after` and a request still without a connection bound it by their deadlines, and
            // `post`/`stop` end it with curl_multi_wakeup. Idle, the thread sleeps.
            let wake = [timers.first?.deadline, connectBy].compactMap { $0 }.min()
            let untilTimer = wake.map { Int32(clamping: ($0 - min($0, now)) / 1_000_000 + 1) }
            curl_multi_poll(multi, nil, 0, untilTimer ?? Int32.max, nil)
        }
        for exchange in Array(active.values) { end(exchange, .cancelled) }
        racing = [:]
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
        curl_share_cleanup(share)
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

    private func schedule(_ deadline: UInt64, _ body: @escaping @Sendable () -> Void) {
        timers.insert((deadline, body), at: timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex)
    }

    // MARK: Warm paths

    /// Starts `exchange` at once. While its origin's probe is under way it races it: its own
    /// connection, no waiting for the probe's (`probeEnded` may move it there).
    private func admit(_ exchange: HTTPExchange) {
        guard let origin = WarmPathsCore.origin(of: exchange.request.url), probes[origin] != nil else {
            add(exchange)
            return
        }
        racing[origin, default: []].append(exchange)
        add(exchange, waitForMultiplexing: false)
    }

    /// A probe ended. If its connection stays open (its answer, of any status, did not close it),
    /// the requests that raced it and have not got a connection of their own yet (nothing sent:
    /// starting them again loses nothing) start again, and libcurl gives them the probe's idle
    /// connection. Otherwise they go on as they are: they never waited.
    private func probeEnded(_ probe: HTTPExchange, origin: String, kept: Bool) {
        let raced = racing.removeValue(forKey: origin) ?? []
        guard kept else { return }
        for exchange in raced where exchange.connectedAt == nil && !exchange.isCancelled {
            guard let easy = exchange.easy, active[easy] != nil else { continue }
            exchange.movedToWarm = true
            curl_multi_remove_handle(multi, easy)   // its half-made connection is closed
            send(exchange, to: exchange.currentURL)
        }
    }

    private func cancel(_ exchange: HTTPExchange) {
        if let easy = exchange.easy, active[easy] != nil { end(exchange, .cancelled) }
    }

    /// Opens a connection to `request`'s origin with a HEAD, unless one is likely open and idle (a
    /// transfer there ended within the keep-warm time), a transfer there is under way, or a probe
    /// already is: at most one spare connection per origin.
    private func preconnect(_ request: HTTPRequest) {
        guard settings.keepWarmSeconds > 0, let origin = WarmPathsCore.origin(of: request.url), probes[origin] == nil,
              !active.values.contains(where: { WarmPathsCore.origin(of: $0.request.url) == origin }) else { return }
        let now = MonotonicClock.nanoseconds()
        if let used = lastUsed[origin], now - used < UInt64(settings.keepWarmSeconds * 1e9) { return }
        let probe = HTTPExchange(request: request, handler: DiscardingHandler.shared)
        probe.startedAt = now
        probes[origin] = probe
        add(probe)
    }

    /// Closes every idle connection once nothing has run for the keep-warm time (a new multi handle
    /// has an empty connection cache; DNS and TLS sessions stay in the share).
    private func closeIdleConnectionsLater() {
        let deadline = MonotonicClock.nanoseconds() + UInt64(settings.keepWarmSeconds * 1e9)
        idleDeadline = deadline
        if !idleTimerSet { setIdleTimer(deadline) }
    }

    private func setIdleTimer(_ deadline: UInt64) {
        idleTimerSet = true
        schedule(deadline) { [unowned self] in
            idleTimerSet = false
            guard let due = idleDeadline, active.isEmpty else { return }   // busy again: the next quiet spell sets it
            guard MonotonicClock.nanoseconds() >= due else { return setIdleTimer(due) }   // a later quiet spell moved it
            idleDeadline = nil
            let fresh = Self.makeMulti(settings)
            let old = lock.withLock { () -> UnsafeMutableRawPointer in
                defer { multi = fresh }
                return multi
            }
            curl_multi_cleanup(old)
            lastUsed = [:]
        }
    }

    // MARK: Exchanges

    /// Configures a new easy handle for `exchange` and puts it on the multi handle. With
    /// `waitForMultiplexing`, a connection to its origin being made is waited for rather than a
    /// second one opened (CURLOPT_PIPEWAIT: HTTP/2 multiplexes); not while a probe's is the one.
    private func add(_ exchange: HTTPExchange, waitForMultiplexing: Bool = true) {
        guard let easy = curl_easy_init() else { exchange.finish(.transport("libcurl could not make a handle")); return }
        idleDeadline = nil
        exchange.easy = easy
        let request = exchange.request
        let me = Unmanaged.passUnretained(exchange).toOpaque()
        ccurl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        ccurl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_set_string(easy, CURLOPT_USERAGENT, "previewd")
        ccurl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)   // redirects are followed here, each one checked
        ccurl_set_pointer(easy, CURLOPT_SHARE, share)
        ccurl_set_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        exchange.waitsForMultiplexing = waitForMultiplexing
        if settings.keepWarmSeconds > 0 {
            ccurl_set_long(easy, CURLOPT_MAXAGE_CONN, max(1, Int(settings.keepWarmSeconds.rounded())))
        } else {
            ccurl_set_long(easy, CURLOPT_FORBID_REUSE, 1)
        }
        if let caFile = settings.caFile {   // besides the system's: its folder of hashed certificates stays trusted
            ccurl_set_string(easy, CURLOPT_CAINFO, caFile)
            if let system = ccurl_default_capath() { ccurl_set_pointer(easy, CURLOPT_CAPATH, UnsafeMutableRawPointer(mutating: system)) }
        }
        let stall = max(request.stallTimeout, 0.001)
        ccurl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(stall * 1000))
        ccurl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)                     // no byte for…
        ccurl_set_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Int(stall.rounded(.up))))   // …this long fails
        if let total = request.totalTimeout { ccurl_set_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(total * 1000))) }
        if request.acceptCompression { ccurl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "") }
        if request.headOnly { ccurl_set_long(easy, CURLOPT_NOBODY, 1) }
        ccurl_set_prereq(easy, curlConnectionReady)
        ccurl_set_pointer(easy, CURLOPT_PREREQDATA, me)
        if exchange.startedAt == 0 { exchange.startedAt = MonotonicClock.nanoseconds() }
        switch request.purpose {
        case .search: StartTimeline.shared.searchSent(at: exchange.startedAt)
        case .preview: StartTimeline.shared.mark(.previewMade, at: exchange.startedAt, preview: exchange)
        case .catalog, .other: break
        }
        if let end = request.rangeEnd {
            ccurl_set_string(easy, CURLOPT_RANGE, "\(request.rangeStart)-\(end)")
        } else if request.rangeStart > 0 {
            ccurl_set_string(easy, CURLOPT_RANGE, "\(request.rangeStart)-")
        }
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
        // Only a TLS connection can turn out to multiplex (HTTP/2, by ALPN). libcurl 7.88 wakes a
        // request waiting to learn that only when another transfer ends, which on cleartext could
        // be never.
        let multiplexes = exchange.waitsForMultiplexing && url.lowercased().hasPrefix("https:")
        ccurl_set_long(easy, CURLOPT_PIPEWAIT, multiplexes ? 1 : 0)
        exchange.connectedAt = nil
        exchange.connectBy = MonotonicClock.nanoseconds() + UInt64(Self.connectionLimit(exchange.request) * 1e9)
        if curl_multi_add_handle(multi, easy) != CURLM_OK {
            end(exchange, .transport("libcurl refused the request for \(url.prefix(200))"), attached: false)
        }
    }

    /// Ends the requests still without a connection past their `connectBy`, and returns the
    /// earliest `connectBy` still ahead (the loop wakes for it; nil once every request has its
    /// connection). libcurl 7.88 never times out a transfer it holds back waiting for a connection
    /// (its PENDING state: the per-host limit, or a wait to multiplex): its connect and total
    /// timeouts start only when the transfer leaves that state. A request must end however
    /// libcurl queues it.
    private func watchConnections(now: UInt64) -> UInt64? {
        var next: UInt64?
        var overdue: [HTTPExchange] = []
        for exchange in active.values where exchange.connectedAt == nil {
            guard let by = exchange.connectBy else { continue }
            if by <= now { overdue.append(exchange) } else { next = min(next ?? by, by) }
        }
        for exchange in overdue {
            let seconds = Int(Self.connectionLimit(exchange.request).rounded())
            let host = PreviewURLPolicy.origin(of: exchange.currentURL) ?? "the server"
            end(exchange, .timedOut("no connection to \(host) within \(seconds) s"))
        }
        return next
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
                end(exchange, Self.failure(code, exchange))
            }
        }
    }

    /// libcurl's result as a failure; the connection-level ones with their cause in a listener's words.
    private static func failure(_ code: CURLcode, _ exchange: HTTPExchange) -> HTTPFailure {
        let why = exchange.errorDescription(code)
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(why)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .unreachable(cause: "name not resolved", detail: why)
        case CURLE_COULDNT_CONNECT:
            guard exchange.refusedConnection == nil else { return .transport(why) }   // our address check, not the network
            let errno = exchange.easy.map { Int32(ccurl_info_long($0, CURLINFO_OS_ERRNO)) } ?? 0
            let cause = errno == ECONNREFUSED ? "connection refused"
                : errno == ENETUNREACH || errno == EHOSTUNREACH ? "no route to the host" : "no connection"
            return .unreachable(cause: cause, detail: why)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR:
            return .unreachable(cause: "TLS failed", detail: why)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING: return .unreachable(cause: "connection reset", detail: why)
        default: return .transport(why)
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

    /// Takes `exchange` off the multi handle, frees its handle and tells its handler; a probe's end
    /// lets the requests waiting for it go.
    private func end(_ exchange: HTTPExchange, _ failure: HTTPFailure?, attached: Bool = true) {
        guard let easy = exchange.easy else { return }
        if attached { curl_multi_remove_handle(multi, easy) }
        curl_easy_cleanup(easy)
        exchange.easy = nil
        active[easy] = nil
        exchange.finish(failure)
        if failure == nil, exchange.request.purpose == .search { StartTimeline.shared.mark(.answer, at: MonotonicClock.nanoseconds()) }
        if let origin = WarmPathsCore.origin(of: exchange.request.url) {
            if failure == nil {
                let now = MonotonicClock.nanoseconds(), keep = UInt64(settings.keepWarmSeconds * 1e9)
                lastUsed = lastUsed.filter { now - $0.value < keep }   // bounded: only origins used within the keep-warm time
                lastUsed[origin] = now
            }
            if probes[origin] === exchange {
                probes[origin] = nil
                probeEnded(exchange, origin: origin, kept: failure == nil && !exchange.closesConnection)
            } else if let raced = racing[origin] {
                racing[origin] = raced.filter { $0 !== exchange }
            }
        }
        if active.isEmpty, settings.keepWarmSeconds > 0 { closeIdleConnectionsLater() }
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
    return socket(address.pointee.family, address.pointee.socktype | CPL_SOCK_CLOEXEC, address.pointee.protocol)
}

/// A transfer's connection is ready (TCP and TLS done, or reused), its request about to go out.
private func curlConnectionReady(_ context: UnsafeMutableRawPointer?, _ primaryIP: UnsafeMutablePointer<CChar>?,
                                 _ localIP: UnsafeMutablePointer<CChar>?, _ primaryPort: Int32, _ localPort: Int32) -> Int32 {
    if let context { Unmanaged<HTTPExchange>.fromOpaque(context).takeUnretainedValue().connectionReady(at: MonotonicClock.nanoseconds()) }
    return Int32(CURL_PREREQFUNC_OK)
}

/// The handler of probes: their answers are not read.
private final class DiscardingHandler: HTTPResponseHandler {
    static let shared = DiscardingHandler()
    func receive(head: HTTPHead) -> Bool { true }
    func receive(body: UnsafeRawBufferPointer) -> Bool { true }
    func finish(_ failure: HTTPFailure?) {}
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
