import Synchronization

/// Where the time of a start goes, in previewd's log at debug level: from a search sent to the first
/// frame of its first preview handed to the output, each step with its milliseconds since the search
/// and since the step before. Written once the first frame is handed (the HTTP steps are reported
/// when libcurl knows them, not in order), one line per step:
///
///     start: search sent              +0.0 ms
///     start: API connected            +40.6 ms  (+40.6)  new connection
///     …
///     start: first frame handed       +212.3 ms (+0.4)
///
/// Nothing is kept, and no lock is taken, unless the log takes debug lines.
public final class StartTimeline: Sendable {
    /// The one timeline of the process.
    public static let shared = StartTimeline()

    /// The steps, in the order they happen.
    public enum Step: Int, CaseIterable, Sendable {
        case searchSent, apiConnected, apiTLS, answer, previewMade, cdnConnection, previewSent, firstByte,
             firstFrameDecoded, firstFrameHanded

        var name: String {
            switch self {
            case .searchSent: return "search sent"
            case .apiConnected: return "API connected"
            case .apiTLS: return "API TLS done"
            case .answer: return "answer"
            case .previewMade: return "preview request made"
            case .cdnConnection: return "CDN connection ready"
            case .previewSent: return "preview request sent"
            case .firstByte: return "first byte"
            case .firstFrameDecoded: return "first frame decoded"
            case .firstFrameHanded: return "first frame handed"
            }
        }
    }

    private struct State {
        var log: Log?
        var marks: [Step: (at: UInt64, detail: String)] = [:]
        /// The preview exchange the timeline follows: the first made after the answer.
        var preview: ObjectIdentifier?
    }

    private let state = Locked(State())
    /// A timeline is open (a search sent, its first frame not handed yet): checked before the lock.
    private let open = Atomic<Bool>(false)

    /// Writes timelines to `log` when it takes debug lines. Call once at start.
    public static func install(_ log: Log) {
        guard log.minimum <= .debug else { return }
        shared.state.withLock { $0.log = log }
    }

    /// A search went out at `at` (monotonic ns): a new timeline starts.
    func searchSent(at: UInt64) {
        let started = state.withLock { state -> Bool in
            guard state.log != nil else { return false }
            state.marks = [.searchSent: (at, "")]
            state.preview = nil
            return true
        }
        if started { open.store(true, ordering: .releasing) }
    }

    /// `step` happened at `at` (monotonic ns); the first report of each step counts. The preview's
    /// steps count only after the answer, and only for `preview` (the first one made after it).
    func mark(_ step: Step, at: UInt64, detail: String = "", preview: AnyObject? = nil) {
        guard open.load(ordering: .acquiring) else { return }
        state.withLock { state in
            guard state.marks[step] == nil else { return }
            if let preview {
                guard state.marks[.answer] != nil else { return }
                let id = ObjectIdentifier(preview)
                if state.preview == nil, step == .previewMade { state.preview = id }
                guard state.preview == id else { return }
            }
            state.marks[step] = (at, detail)
        }
    }

    /// Whether `exchange` is the preview request the open timeline follows.
    func follows(_ exchange: AnyObject) -> Bool {
        guard open.load(ordering: .acquiring) else { return false }
        return state.withLock { $0.preview == ObjectIdentifier(exchange) }
    }

    /// The first frame of a feed was handed to the output at `at`, its first decoded at `decodedAt`:
    /// the open timeline ends and is written. Once per feed, from the output's thread; nothing when
    /// no timeline is open (or before the search's answer: an older feed).
    func firstFrameHanded(decodedAt: UInt64, at: UInt64) {
        guard open.load(ordering: .acquiring) else { return }
        let ended = state.withLock { state -> (Log, [(Step, UInt64, String)])? in
            guard let log = state.log, state.marks[.previewMade] != nil else { return nil }
            if decodedAt > 0 { state.marks[.firstFrameDecoded] = (decodedAt, "") }
            state.marks[.firstFrameHanded] = (at, "")
            defer { state.marks = [:]; state.preview = nil }
            return (log, state.marks.map { ($0.key, $0.value.at, $0.value.detail) }.sorted { $0.0.rawValue < $1.0.rawValue })
        }
        guard let (log, steps) = ended else { return }
        open.store(false, ordering: .releasing)
        let origin = steps.first { $0.0 == .searchSent }?.1 ?? steps[0].1
        var previous = origin
        for (step, at, detail) in steps {
            let since = Self.ms(Int64(bitPattern: at &- origin)), delta = Self.ms(Int64(bitPattern: at &- previous))
            let name = step.name + String(repeating: " ", count: max(0, 22 - step.name.count))
            log(.debug, "start: \(name) +\(since) ms (+\(delta))\(detail.isEmpty ? "" : "  " + detail)")
            previous = at
        }
    }

    /// Nanoseconds as milliseconds with one decimal.
    static func ms(_ ns: Int64) -> String {
        let tenths = (ns + (ns >= 0 ? 50_000 : -50_000)) / 100_000
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
