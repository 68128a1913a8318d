import PreviewCore

/// When each host last answered (any HTTP response), so a failure can be told apart: a host in
/// trouble while others answer, or an outage, where no host previewd tries answers.
public final class NetworkAnswers: Sendable {
    /// Hosts remembered; the ones heard from longest ago go first.
    static let maxHosts = 64
    private let last = Locked<[String: UInt64]>([:])

    /// Nothing heard yet.
    public init() {}

    /// `host` (`host:port`) answered at `at` (monotonic nanoseconds).
    public func answered(_ host: String, at: UInt64 = MonotonicClock.nanoseconds()) {
        last.withLock { last in
            last[host] = at
            if last.count > Self.maxHosts, let oldest = last.min(by: { $0.value < $1.value })?.key { last[oldest] = nil }
        }
    }

    /// Whether a host other than `host` answered at or after `since` (monotonic nanoseconds).
    public func othersAnswered(since: UInt64, besides host: String) -> Bool {
        last.withLock { $0.contains { $0.key != host && $0.value >= since } }
    }
}
