import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PreviewCore

/// Streams previews over HTTP into `PreviewBytes` as the bytes arrive (a URLSession data-task
/// delegate), so decoding starts when the header is in, long before the download ends. One session
/// for every preview: consecutive previews from one host reuse its keep-alive connection.
public final class PreviewFetcher: NSObject, URLSessionDataDelegate {
    private let lock = NSLock()
    private var active: [Int: PreviewBytes] = [:]   // protected by lock; by task identifier
    private var session: URLSession!                // set once in init

    /// A fetcher whose downloads fail when no byte arrives for `stallTimeout` seconds.
    public init(stallTimeout: TimeInterval = 15) {
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
        guard PreviewURLPolicy.isFetchable(url), let parsed = URL(string: url) else {
            bytes.fail(.refusedURL(url))
            return FetchHandle(task: nil, bytes: bytes)
        }
        let task = session.dataTask(with: URLRequest(url: parsed))
        lock.lock()
        active[task.taskIdentifier] = bytes
        lock.unlock()
        task.resume()
        return FetchHandle(task: task, bytes: bytes)
    }

    /// Cancels every download and releases the session.
    public func shutdown() {
        session.invalidateAndCancel()
    }

    private func bytes(for task: URLSessionTask) -> PreviewBytes? {
        lock.lock(); defer { lock.unlock() }
        return active[task.taskIdentifier]
    }

    // MARK: URLSessionDataDelegate (on the session's serial queue)

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let bytes = bytes(for: dataTask) else { return completionHandler(.cancel) }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            bytes.fail(.httpStatus(http.statusCode, url: dataTask.originalRequest?.url?.absoluteString ?? "?"))
            return completionHandler(.cancel)
        }
        bytes.expect(length: response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil)
        completionHandler(bytes.error == nil ? .allow : .cancel)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let bytes = bytes(for: dataTask), bytes.append(data) else { dataTask.cancel(); return }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let bytes = active.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let bytes else { return }
        if let error {
            bytes.fail((error as? URLError)?.code == .cancelled ? .cancelled : .transport(error.localizedDescription))
        } else {
            bytes.finish()
        }
    }
}

// `active` is guarded by `lock`; `session` is set once in init and is itself thread-safe.
extension PreviewFetcher: @unchecked Sendable {}

/// Cancels one download.
public struct FetchHandle: Sendable {
    fileprivate let task: URLSessionDataTask?
    /// The bytes the download fills.
    public let bytes: PreviewBytes

    /// Stops the download and fails its bytes with `.cancelled`.
    public func cancel() {
        bytes.cancel()
        task?.cancel()
    }
}
