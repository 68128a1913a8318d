import Foundation
import Glibc
import PreviewCore

/// The project's stand-in of the iTunes Search API: real HTTP/1.1 on 127.0.0.1 with keep-alive and
/// Range, serving `/search`, `/lookup`, `/previews/NAME` and `/artwork/…` from a bundled catalog and
/// folders of previews and artwork, with faults injected per path. Used by the tests, `scripts/demo` and the benchmarks.
public final class StandInServer {
    /// The catalog's JSON file (with `{{BASE}}` placeholders) and the previews folder.
    public let catalogFile: URL
    public let previewsDirectory: URL
    private let lock = NSCondition()   // signalled when a request is logged
    private var catalog = StandInCatalog(tracks: [])   // protected by lock
    private var faults: [String: StandInFault] = [:]   // protected by lock; by path prefix
    private var recordings: [(StandInRecording, [UInt8])] = []   // protected by lock; the latest added first
    private var previewDelayMs = 0                     // protected by lock
    private var requests: [String] = []                // protected by lock
    private var requestConnections: [Int] = []         // protected by lock; the connection of each request
    private var probeAnswer = StandInProbeAnswer.ok    // protected by lock
    private var probeGate: String?                     // protected by lock
    private var listener: Int32 = -1                   // protected by lock
    private var connections: Set<Int32> = []           // protected by lock
    private var accepted = 0                           // protected by lock
    /// The port, once started.
    public private(set) var port: UInt16 = 0

    /// A server for `catalogFile` and `previewsDirectory`; call `start()`.
    public init(catalogFile: URL, previewsDirectory: URL) {
        self.catalogFile = catalogFile
        self.previewsDirectory = previewsDirectory
    }

    /// `http://127.0.0.1:PORT`, the value for `previewd --api-base`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Listens on 127.0.0.1:`port` (0: any free port) and serves on background threads.
    public func start(port requested: UInt16 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StandInError.system("socket", errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw StandInError.system("bind/listen", code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let loaded = try StandInCatalog(contentsOf: catalogFile, base: baseURL)
        lock.lock()
        catalog = loaded
        listener = fd
        lock.unlock()
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "standin.accept"
        thread.start()
    }

    /// Stops listening and closes every connection.
    public func stop() {
        lock.lock()
        let fd = listener
        listener = -1
        let open = connections
        lock.unlock()
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }   // the accept thread closes it (no fd reuse race)
        for c in open { shutdown(c, Int32(SHUT_RDWR)) }
    }

    /// Injects `fault` into every answer whose path starts with `pathPrefix` (nil removes it).
    public func setFault(_ fault: StandInFault?, forPathPrefix pathPrefix: String) {
        lock.lock(); defer { lock.unlock() }
        faults[pathPrefix] = fault
    }

    /// Serves `recording` (its file read from `folder`) from now on, before the catalog's own
    /// answers; a later recording for the same request wins.
    public func addRecording(_ recording: StandInRecording, from folder: URL) throws {
        var body: [UInt8] = []
        if let file = recording.file {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            body = Array(text.replacingOccurrences(of: "{{BASE}}", with: baseURL).utf8)
        }
        lock.lock(); defer { lock.unlock() }
        recordings.insert((recording, body), at: 0)
    }

    /// Serves every recording of the index `recordings.json` in `folder`.
    public func addRecordings(in folder: URL) throws {
        for recording in try StandInRecording.index(folder.appendingPathComponent("recordings.json")) {
            try addRecording(recording, from: folder)
        }
    }

    /// Makes every preview answer wait `milliseconds` first (a far CDN).
    public func setPreviewDelay(milliseconds: Int) {
        lock.lock(); defer { lock.unlock() }
        previewDelayMs = milliseconds
    }

    /// Answers a `HEAD` (a pre-connect's probe) with `answer`, only once a request line containing
    /// `gate` has been logged when one is given (a probe still unanswered when that request came).
    public func setProbeAnswer(_ answer: StandInProbeAnswer, after gate: String? = nil) {
        lock.lock(); defer { lock.unlock() }
        (probeAnswer, probeGate) = (answer, gate)
    }

    /// The request lines served so far, each with the number of its connection (0 for the first
    /// accepted), in the order they came.
    public var requestsWithConnections: [(connection: Int, line: String)] {
        lock.lock(); defer { lock.unlock() }
        return zip(requestConnections, requests).map { (connection: $0, line: $1) }
    }

    /// Connections accepted so far (keep-alive shows as fewer connections than requests).
    public var connectionCount: Int {
        lock.lock(); defer { lock.unlock() }
        return accepted
    }

    /// The request lines served so far, in order, with ` range=…` when a Range header was sent.
    public var requestLog: [String] {
        lock.lock(); defer { lock.unlock() }
        return requests
    }

    /// Waits up to `timeout` seconds for a logged request line that `matches`; true when one came.
    public func waitForRequest(timeout: TimeInterval = 10, where matches: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while !requests.contains(where: matches) {
            guard lock.wait(until: deadline) else { return requests.contains(where: matches) }
        }
        return true
    }

    // MARK: Serving

    private func acceptLoop(_ fd: Int32) {
        defer { close(fd) }
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            lock.lock(); connections.insert(client); let number = accepted; accepted += 1; lock.unlock()
            let thread = Thread { [self] in
                serve(client, number: number)
                lock.lock(); connections.remove(client); lock.unlock()
                close(client)
            }
            thread.name = "standin.client"
            thread.start()
        }
    }

    private func serve(_ fd: Int32, number: Int) {
        var pending = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {   // keep-alive: one request after another on the same connection
            var headEnd: Int?
            while headEnd == nil {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { return }
                pending += chunk[..<n]
                headEnd = Self.find(pending, [13, 10, 13, 10])
                if headEnd == nil, pending.count > 64 * 1024 { return }
            }
            let text = String(decoding: pending[..<headEnd!], as: UTF8.self)
            pending.removeFirst(headEnd! + 4)
            guard let head = HTTPRequestHead(text) else { return }
            let line = (text.split(separator: "\r\n").first.map(String.init) ?? "") + (head.headers["range"].map { " range=\($0)" } ?? "")
            lock.lock(); requests.append(line); requestConnections.append(number); lock.broadcast()
            lock.unlock()
            guard respond(to: head, on: fd) else { return }
            if head.headers["connection"]?.lowercased() == "close" { return }
        }
    }

    /// Answers a probe as asked; false when the connection must close.
    private func answerProbe(_ answer: StandInProbeAnswer, after gate: String?, on fd: Int32) -> Bool {
        if let gate, answer != .silent { _ = waitForRequest(timeout: 30) { $0.contains(gate) } }
        switch answer {
        case .ok: return send(fd, status: 200, type: "text/html", body: [])
        case .notFound: return send(fd, status: 404, type: "text/html", body: [])
        case .closeWith501:
            _ = write(fd, Array("HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return false
        case .silent:
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) > 0 {}   // until the client gives up or the server stops
            return false
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)   // close sends RST
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            return false
        }
    }

    /// Writes the answer; false when the connection must close.
    private func respond(to head: HTTPRequestHead, on fd: Int32) -> Bool {
        lock.lock()
        let matching = faults.filter { head.path.hasPrefix($0.key) }
        var faultList = Array(matching.values)
        // A drop fires once: the resumed request that follows must succeed.
        for (prefix, fault) in matching { if case .dropAfter = fault { faults[prefix] = nil } }
        let delay = head.path.hasPrefix("/previews/") ? previewDelayMs : 0
        let catalog = self.catalog
        let (probeAnswer, probeGate) = (self.probeAnswer, self.probeGate)
        let recorded = recordings.first { $0.0.answers(path: head.path, items: head.query) }
        lock.unlock()

        // A HEAD (previewd's pre-connect probes its host's root): the head alone, as servers do.
        if head.method == "HEAD" { return answerProbe(probeAnswer, after: probeGate, on: fd) }
        if delay > 0 { usleep(UInt32(delay) * 1000) }
        for fault in faultList {
            switch fault {
            case .status(let code):
                return send(fd, status: code, type: "text/html", body: Array("<html><body>\(code)</body></html>".utf8))
            case .delay(let ms):
                usleep(UInt32(ms) * 1000)
            case .html:
                return send(fd, status: 200, type: "text/html", body: Array("<html><body>Not audio</body></html>".utf8))
            case .redirect(let location):
                return send(fd, status: 302, type: "text/html", body: [], extra: ["Location: \(location)"])
            case .body(let bytes, let type):
                return send(fd, status: 200, type: type, body: bytes)
            case .retryAfter(let code, let seconds):
                return send(fd, status: code, type: "text/html", body: Array("<html>slow down</html>".utf8), extra: ["Retry-After: \(seconds)"])
            default:
                break
            }
        }
        if let (recording, body) = recorded {
            return send(fd, status: recording.status, type: body.isEmpty ? "text/html" : "text/javascript; charset=utf-8", body: body,
                        extra: recording.headers)
        }
        let ignoreRange = faultList.contains(.ignoreRange)
        faultList.removeAll { $0 == .ignoreRange }
        let shift = faultList.lazy.compactMap { fault -> Int? in if case .shiftedRange(let n) = fault { return n } else { return nil } }.first ?? 0
        faultList.removeAll { if case .shiftedRange = $0 { return true } else { return false } }
        let fault = faultList.first

        switch head.path {
        case "/search":
            return sendJSON(fd, catalog.search(head.query))
        case "/lookup":
            return sendJSON(fd, catalog.lookup(head.query))
        case let path where path.hasSuffix("/json") && path.contains("/rss/topsongs/"):
            let body = (try? JSONEncoder().encode(catalog.chart(path: path))) ?? Data()
            return send(fd, status: 200, type: "text/javascript; charset=utf-8", body: [UInt8](body))
        case let path where path.hasPrefix("/api/v2/") && path.hasSuffix("/songs.json"):
            let body = (try? JSONEncoder().encode(catalog.currentChart(path: path))) ?? Data()
            return send(fd, status: 200, type: "application/json", body: [UInt8](body))
        case let path where path.hasPrefix("/artwork/") && !path.contains(".."):
            guard let body = artwork(String(path.dropFirst(9))) else {
                return send(fd, status: 404, type: "text/html", body: Array("<html><body>Not found</body></html>".utf8))
            }
            return send(fd, status: 200, type: path.hasSuffix(".png") ? "image/png" : "image/jpeg", body: body, fault: fault)
        default:
            guard head.path.hasPrefix("/previews/"), !head.path.contains(".."),
                  let body = try? Data(contentsOf: previewsDirectory.appendingPathComponent(String(head.path.dropFirst(10)))) else {
                return send(fd, status: 404, type: "text/html", body: Array("<html><body>Not found</body></html>".utf8))
            }
            let bytes = [UInt8](body)
            if !ignoreRange, let asked = head.range(length: bytes.count) {
                let range = min(asked.lowerBound + shift, asked.upperBound)...asked.upperBound
                return send(fd, status: 206, type: "audio/mp4", body: Array(bytes[range]), fault: fault,
                            extra: ["Content-Range: bytes \(range.lowerBound)-\(range.upperBound)/\(bytes.count)"])
            }
            return send(fd, status: 200, type: "audio/mp4", body: bytes, fault: fault,
                        extra: ignoreRange ? [] : ["Accept-Ranges: bytes"])
        }
    }

    /// Artwork as Apple serves it: `NAME/600x600bb.jpg` is `NAME.jpg` of the artwork folder (beside
    /// the previews; at 600 or at the catalog's own 100, no other size, so a client must ask for
    /// one of those), a plain `FILE` is that file.
    private func artwork(_ rest: String) -> [UInt8]? {
        let folder = previewsDirectory.deletingLastPathComponent().appendingPathComponent("artwork")
        let parts = rest.split(separator: "/")
        let file: String
        switch parts.count {
        case 2 where parts[1] == "600x600bb.jpg" || parts[1] == "100x100bb.jpg": file = parts[0] + ".jpg"
        case 1: file = String(parts[0])
        default: return nil
        }
        return (try? Data(contentsOf: folder.appendingPathComponent(file))).map { [UInt8]($0) }
    }

    private func sendJSON(_ fd: Int32, _ tracks: [Track]) -> Bool {
        send(fd, status: 200, type: "text/javascript; charset=utf-8", body: Self.searchBody(tracks))
    }

    /// `tracks` as the body of a search or lookup answer.
    static func searchBody(_ tracks: [Track]) -> [UInt8] {
        [UInt8]((try? JSONEncoder().encode(SearchResponse(results: tracks))) ?? Data())
    }

    private func send(_ fd: Int32, status: Int, type: String, body: [UInt8], fault: StandInFault? = nil,
                      extra: [String] = []) -> Bool {
        let reason = [200: "OK", 206: "Partial Content", 302: "Found", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
                      500: "Internal Server Error", 503: "Service Unavailable"][status] ?? "Status"
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
        head += extra.map { $0 + "\r\n" }.joined() + "Connection: keep-alive\r\n\r\n"
        guard write(fd, Array(head.utf8)) else { return false }
        switch fault {
        case .dropAfter(let n)?:
            _ = write(fd, Array(body.prefix(n)))
            return false
        case .throttle(let rate)?:
            let piece = max(1, rate / 20)
            var offset = 0
            while offset < body.count {
                guard write(fd, Array(body[offset..<min(body.count, offset + piece)])) else { return false }
                offset += piece
                usleep(50_000)
            }
            return true
        default:
            return write(fd, body)
        }
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    private static func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<i + needle.count].elementsEqual(needle) {
            return i
        }
        return nil
    }
}

// Mutable state is guarded by `lock`; `port` is written once before any thread reads it.
extension StandInServer: @unchecked Sendable {}

/// Why the stand-in could not start.
public enum StandInError: Error, CustomStringConvertible {
    case system(String, Int32)
    public var description: String {
        switch self { case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))" }
    }
}
