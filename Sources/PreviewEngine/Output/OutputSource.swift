/// What a device's thread pulls from and reports to, holding its own lock: the `OutputSequencer`
/// when one device plays alone, or its member's tap in an `OutputGroup` (several outputs at once).
public protocol OutputSource: AnyObject {
    /// True while there is a feed to play (paused or not).
    var hasFeed: Bool { get }
    /// True when the device should pull again without being kicked first.
    var expectsFrames: Bool { get }
    /// Copies up to `frames` frames into `destination`; returns how many. No allocation, no waiting.
    func pull(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int
    /// The device went away or could not be reached (on every failed attempt).
    func outputLost(_ why: String)
    /// The device is ready (connected).
    func outputRestored()
}

extension OutputSequencer: OutputSource {}
