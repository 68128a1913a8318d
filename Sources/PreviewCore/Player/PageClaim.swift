/// A web page that plays the queue itself ("Play here", previewd-web): one of previewd's outputs.
/// While a page holds the claim it keeps the clock: the position previewd reports is the one the
/// page last reported, run on by the time since when it plays. Only one page holds it: a second
/// page's claim takes it over. The type decides; the player only carries it (no I/O, no clock of
/// its own: times are given in nanoseconds of the monotonic clock).
///
/// The seam to the outputs: `silencesBox` says the box's outputs that play to a device go silent
/// (their clocks running, following the page); `clockMs(for:at:)` is the clock the status shows.
public struct PageClaim: Equatable, Sendable {
    /// The page's own name for itself (random, per page load): reports from another page are refused.
    public var page: String
    /// "Here only": the box's device outputs are silent; else "here and on the speakers".
    public var hereOnly: Bool
    /// The last report: the queue item the page plays, where, whether it plays, and when it said so.
    public var report: Report?

    /// What a page last said of its playback.
    public struct Report: Equatable, Sendable {
        public var item: Int
        public var positionMs: Int
        public var playing: Bool
        public var at: UInt64

        public init(item: Int, positionMs: Int, playing: Bool, at: UInt64) {
            self.item = item
            self.positionMs = positionMs
            self.playing = playing
            self.at = at
        }
    }

    public init(page: String, hereOnly: Bool) {
        self.page = page
        self.hereOnly = hereOnly
    }

    /// True when the box's device outputs are to be silent now.
    public var silencesBox: Bool { hereOnly }

    /// The position of queue item `item` by the page's clock at `now`, or nil when the page has
    /// said nothing of that item (the box's clock stands until it does).
    public func clockMs(for item: Int, at now: UInt64, durationMs: Int?) -> Int? {
        guard let report, report.item == item else { return nil }
        var position = report.positionMs
        if report.playing, now > report.at { position += Int((now - report.at) / 1_000_000) }
        if let durationMs, durationMs > 0 { position = min(position, durationMs) }
        return max(0, position)
    }

    /// How far the box's outputs may drift from the page's clock before they are moved to it.
    public static let resyncMs = 150

    /// True when the box's position `box` is too far from the page's `page` (both in ms).
    public static func needsResync(box: Int, page: Int) -> Bool { abs(box - page) > resyncMs }

    /// Longest a claim lasts with no report and no audio request from its page, by default: a
    /// preview's length and a margin. A locked iPhone keeps its element playing and fetching while
    /// its JavaScript sleeps, so only silence for longer than a whole track tells a gone page.
    /// previewd's `--page-silence` changes it (tests shorten it), down to `silenceFloorMs`.
    public static let silenceLimitMs = 45_000

    /// The shortest limit allowed: a page playing reports about once a second.
    public static let silenceFloorMs = 2_000

    /// True when the page has said nothing (no report, no audio request) since `lastHeard` for
    /// longer than `limitMs` at `now`.
    public static func isGone(lastHeard: UInt64, now: UInt64, limitMs: Int = silenceLimitMs) -> Bool {
        now > lastHeard && (now - lastHeard) / 1_000_000 > UInt64(limitMs)
    }
}
