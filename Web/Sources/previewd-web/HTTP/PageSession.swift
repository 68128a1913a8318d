import PreviewCore
import Synchronization

/// One page's WebSocket: takes its requests (rate-bounded), passes them to previewd and sends the
/// answers back with the page's ids. Searches go one at a time per page, and a newer search waiting
/// replaces an older one (the last query wins), so typing never queues calls to Apple.
final class PageSession: Sendable {
    private struct State {
        var limiter = RateLimiter()
        var searching = false
        var waitingSearch: PageRequest?
    }

    private let link: DaemonLink
    private let outbox: PageOutbox
    private let state = Mutex(State())

    init(link: DaemonLink, outbox: PageOutbox) {
        self.link = link
        self.outbox = outbox
    }

    /// Handles one text message from the page.
    func receive(_ text: String) {
        let parsed = Result { () throws(PageRequest.Rejection) in try PageRequest.parse(Array(text.utf8)) }
        // Every message takes a rate token, a malformed one too: each gets an answer.
        guard state.withLock({ $0.limiter.take() }) else {
            let id = switch parsed { case .success(let request): request.id; case .failure(let rejection): rejection.id }
            outbox.send(PageRequest.text(of: DaemonLink.failure("rate-limited", "more than 20 requests a second"), id: id))
            return
        }
        let request: PageRequest
        do { request = try parsed.get() } catch {
            outbox.send(PageRequest.text(of: error.answer, id: error.id))
            return
        }
        guard request.cmd == ControlVerb.Name.search.rawValue else { return start(request) }
        let (go, replaced) = state.withLock { state -> (Bool, PageRequest?) in
            if !state.searching { state.searching = true; return (true, nil) }
            let old = state.waitingSearch
            state.waitingSearch = request
            return (false, old)
        }
        if let replaced {
            outbox.send(PageRequest.text(of: DaemonLink.failure("superseded", "a newer search replaced this one"), id: replaced.id))
        }
        if go { start(request) }
    }

    private func start(_ request: PageRequest) {
        Task {
            let answer = await link.call(request.cmd, args: request.args)
            outbox.send(PageRequest.text(of: answer, id: request.id))
            if request.cmd == ControlVerb.Name.search.rawValue { searchFinished() }
        }
    }

    private func searchFinished() {
        let next = state.withLock { state -> PageRequest? in
            guard let next = state.waitingSearch else { state.searching = false; return nil }
            state.waitingSearch = nil
            return next
        }
        if let next { start(next) }
    }
}
