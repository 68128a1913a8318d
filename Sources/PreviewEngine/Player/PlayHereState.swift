import PreviewCore

/// What the player keeps for a page that plays the queue itself ("Play here", `Player+PlayHere.swift`):
/// the page's claim and clock (decided by `PageClaim`), when it was last heard from, the timer that
/// tells a gone page, and the previews it asked for that the prefetch window does not hold.
struct PlayHereState {
    /// The page that plays here, if one does.
    var claim: PageClaim?
    /// When the page last reported or asked for audio (nanoseconds of the monotonic clock).
    var lastHeard: UInt64 = 0
    /// The queue item the box was last moved to the page's clock on: once per track, so a page whose
    /// reports arrive late (their transit is not known) does not make the box jump every second.
    var resyncedItem: Int?
    /// Fires once the page has been silent for longer than `silenceLimitMs`.
    var goneTimer: EngineLoop.TimerID?
    /// How long a page playing here may say nothing before it is taken for gone (`--page-silence`;
    /// by default longer than a track, `PageClaim.silenceLimitMs`).
    var silenceLimitMs = PageClaim.silenceLimitMs
    /// Previews asked for by the page and held for it alone, oldest first: what it plays and what it
    /// preloads, so at most `maxOwnDownloads`.
    var ownDownloads: [(url: String, download: PreviewDownload)] = []

    /// The page plays one preview and preloads the next.
    static let maxOwnDownloads = 2
}
