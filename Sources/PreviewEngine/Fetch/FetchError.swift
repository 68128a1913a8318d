import PreviewCore

/// Why a preview download failed. `message` is the one line a user sees.
public enum FetchError: Error, Equatable, Sendable {
    /// The URL is not an http(s) URL previewd may fetch, or points at a local address other than the API's.
    case refusedURL(String)
    /// The server answered with a non-success status.
    case httpStatus(Int, url: String)
    /// The connection failed or stalled (URLSession's description).
    case transport(String)
    /// The body is larger than the slot's memory budget.
    case tooLarge(limit: Int)
    /// The body ended before Content-Length bytes came.
    case truncated(received: Int, expected: Int)
    /// The whole download took longer than its deadline (a server that trickles bytes).
    case deadline(seconds: Int)
    /// A resumed download's 206 did not start at the byte asked for.
    case badResume(asked: Int, got: Int?)
    /// The slot was cancelled (skip, queue change, shutdown).
    case cancelled
    /// A head's decoder read past the head's bytes (the rest is fetched only when it is played).
    case pastHead
    /// The preview's host did not answer, or answered 5xx or 429: transient, tried again later.
    case unreachable(NetworkTrouble)

    /// Trying again later may help (the network or the server is in trouble); false: it will
    /// fail the same way (404/410, a refused URL, too large, not a preview).
    public var isTransient: Bool {
        if case .unreachable = self { return true }
        return false
    }

    /// One line for the user.
    public var message: String {
        switch self {
        case .refusedURL(let url): return "refusing to fetch \(url.prefix(200)): previews are fetched only over http(s), and from local addresses only from the API's own"
        case .httpStatus(let code, let url): return "preview server answered HTTP \(code) for \(url.prefix(200))"
        case .transport(let why): return "preview download failed: \(why)"
        case .tooLarge(let limit): return "preview is larger than the \(limit / 1024 / 1024) MiB budget"
        case .truncated(let got, let want): return "preview download ended after \(got) of \(want) bytes"
        case .deadline(let seconds): return "preview download took longer than \(seconds) s"
        case .badResume(let asked, let got):
            return "preview server resumed at byte \(got.map(String.init) ?? "(not said)") instead of \(asked)"
        case .cancelled: return "cancelled"
        case .pastHead: return "the preview's first seconds are not enough to start it"
        case .unreachable(let trouble): return trouble.sentence
        }
    }
}
