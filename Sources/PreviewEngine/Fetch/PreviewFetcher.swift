import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PreviewCore

/// Streams previews over HTTP into `PreviewBytes` as the bytes arrive (a URLSession data-task
/// delegate), so decoding starts when the header is in, long before the download ends. One session
/// for every preview: consecutive previews from one host reuse its keep-alive connection.
///
/// A connection dropped mid-body is resumed from the last byte received with a Range request
/// (a few times, with growing waits); a server that ignores Range and sends the whole body again
/// has the bytes already held skipped. At most `maxRedirects` redirects are followed.
public final class PreviewFetcher: NSObject, URLSessionDataDelegate {
    /// Waits before each resume attempt; their count is the number of attempts.
    public let resumeBackoff: [TimeInterval]
    /// Redirects followed per request.
    public let maxRedirects = 5
    private let lock = NSLock()
    private var active: [Int: PreviewTransfer] = [:]   // protected by lock; by task identifier
    private var session: URLSession!                   // set once in init

    /// A fetcher whose downloads fail when no byte arrives for `stallTimeout` seconds.
    /// The one `host:port` on a loopback or private address previews may come from (the API's own,
    /// e.g. a local mirror); nil refuses every local address.
    public let localOrigin: String?

    /// A fetcher that waits `stallTimeout` for bytes and resumes a dropped download after each of
    /// `resumeBackoff`; previews on local addresses are fetched only from `localOrigin`.
    public init(stallTimeout: TimeInterval = 15, resumeBackoff: [TimeInterval] = [0.1, 0.5, 1.5], localOrigin: String? = nil) {
        self.localOrigin = localOrigin
        self.resumeBackoff = resumeBackoff
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = stallTimeout
        configuration.httpMaximumConnectionsPerHost = 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.name = "previewd.fetch"
        queue.maxConcurrentOperationCount = 1   // callbacks in order, one at a time
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Starts downloading `url` into `bytes`; returns a handle that cancels it. A URL previewd may not
    /// fetch fails `bytes` at once.
    @discardableResult
    public func fetch(_ url: String, into bytes: PreviewBytes) -> FetchHandle {
        guard PreviewURLPolicy.isFetchable(url), PreviewURLPolicy.localAddressReason(url, apiOrigin: localOrigin) == nil,
              let parsed = URL(string: url) else {
            bytes.fail(.refusedURL(url))
            return FetchHandle(transfer: nil, bytes: bytes)
        }
        let transfer = PreviewTransfer(url: parsed, bytes: bytes)
        start(transfer)
        return FetchHandle(transfer: transfer, bytes: bytes)
    }

    /// Cancels every download and releases the session.
    public func shutdown() {
        session.invalidateAndCancel()
    }

    /// Sends the request for what is still missing: all of it, or from the first byte not held.
    private func start(_ transfer: PreviewTransfer) {
        var request = URLRequest(url: transfer.url)
        let held = transfer.bytes.receivedCount
        if held > 0 { request.setValue("bytes=\(held)-", forHTTPHeaderField: "Range") }
        let task = session.dataTask(with: request)
        guard transfer.begin(task, resumingAt: held) else { return }   // cancelled meanwhile
        lock.lock()
        active[task.taskIdentifier] = transfer
        lock.unlock()
        task.resume()
    }

    private func transfer(for task: URLSessionTask) -> PreviewTransfer? {
        lock.lock(); defer { lock.unlock() }
        return active[task.taskIdentifier]
    }

    // MARK: URLSessionDataDelegate (on the session's serial queue)

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(for: dataTask) else { return completionHandler(.cancel) }
        let bytes = transfer.bytes
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        switch status {
        case 206 where transfer.resumeOffset > 0:
            transfer.skip = 0                               // the server sends exactly what is missing
        case 200..<300:
            transfer.skip = transfer.resumeOffset           // Range ignored: the whole body again
            if response.expectedContentLength >= 0 { bytes.expect(length: Int(response.expectedContentLength)) }
        default:
            bytes.fail(.httpStatus(status, url: transfer.url.absoluteString))
            return completionHandler(.cancel)
        }
        completionHandler(bytes.error == nil ? .allow : .cancel)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else { dataTask.cancel(); return }
        var piece = data
        if transfer.skip > 0 {
            let dropped = min(transfer.skip, piece.count)
            piece = piece.dropFirst(dropped)
            transfer.skip -= dropped
        }
        if !piece.isEmpty, !transfer.bytes.append(piece) { dataTask.cancel() }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let transfer = transfer(for: task) else { return completionHandler(nil) }
        transfer.redirects += 1
        guard transfer.redirects <= maxRedirects, let url = request.url, PreviewURLPolicy.isFetchable(url.absoluteString),
              PreviewURLPolicy.localAddressReason(url.absoluteString, apiOrigin: localOrigin) == nil else {
            transfer.bytes.fail(.transport("too many redirects, or a redirect to a URL previewd does not fetch"))
            return completionHandler(nil)
        }
        completionHandler(request)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let transfer = active.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let transfer else { return }
        let bytes = transfer.bytes
        if (error as? URLError)?.code == .cancelled || bytes.error != nil {
            bytes.fail(.cancelled)   // no-op when it already failed for a reason
            return
        }
        let short = bytes.knownLength.map { bytes.receivedCount < $0 } ?? false
        guard error != nil || short else { bytes.finish(); return }
        // Dropped mid-body: resume from the first missing byte, a few times, with growing waits.
        guard transfer.attempts < resumeBackoff.count else {
            bytes.fail(error.map { .transport($0.localizedDescription) }
                       ?? .truncated(received: bytes.receivedCount, expected: bytes.knownLength ?? 0))
            return
        }
        let wait = resumeBackoff[transfer.attempts]
        transfer.attempts += 1
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [weak self] in
            guard let self, bytes.error == nil else { return }
            start(transfer)
        }
    }
}

// `active` is guarded by `lock`; `session` is set once in init and is itself thread-safe.
extension PreviewFetcher: @unchecked Sendable {}

/// One preview's download across its requests (the first and any resumes).
final class PreviewTransfer: @unchecked Sendable {
    let url: URL
    let bytes: PreviewBytes
    // The fields below are used on the session's serial delegate queue only, except `task`.
    var attempts = 0
    var redirects = 0
    var resumeOffset = 0
    var skip = 0
    private let lock = NSLock()
    private var task: URLSessionDataTask?   // protected by lock
    private var cancelled = false           // protected by lock

    init(url: URL, bytes: PreviewBytes) {
        self.url = url
        self.bytes = bytes
    }

    /// Records the request now under way; false (and the task is not started) after a cancel.
    func begin(_ task: URLSessionDataTask, resumingAt offset: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !cancelled else { return false }
        self.task = task
        resumeOffset = offset
        redirects = 0
        return true
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
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
}
