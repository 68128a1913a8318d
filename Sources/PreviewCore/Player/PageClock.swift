/// Whether a page playing here ("Play here", `PageClaim`) keeps the clock, and the box's load whose
/// end waits for the page's. While a page keeps it, the page's end of a track is the one that
/// advances the queue: the box hands its output no follower (it does not run into the next track by
/// itself), and its end of the current track waits, silent, until the page's end arrives, or until
/// the page is gone or let go (then the box's end counts again). A value the core keeps.
public struct PageClock: Equatable, Sendable {
    /// A page keeps the clock.
    public internal(set) var kept = false
    /// The box's load that played to its end while the page kept the clock; its end not yet counted.
    public internal(set) var heldEnd: PlayerCore.SlotID?
}
