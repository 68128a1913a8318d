/// The artwork URLs of the tracks previewd answered lately (search, lookup, top, more), by track
/// id, so a front-end can show a results list's pictures without queueing it and without ever
/// naming a URL itself: previewd fetches only what Apple's answers named. Bounded: the oldest
/// go first.
public struct RecentArtwork: Sendable {
    /// How many tracks are remembered.
    public let capacity: Int
    private var urls: [Int: String] = [:]
    private var order: [Int] = []   // oldest first; a ring from `start`
    private var start = 0

    public init(capacity: Int = 1_000) { self.capacity = max(1, capacity) }

    /// Remembers the artwork of `tracks` (the ones that have a track id and an artwork URL).
    public mutating func remember(_ tracks: [Track]) {
        for track in tracks {
            guard let id = track.trackId, let url = track.artworkUrl100 ?? track.artworkUrl60 ?? track.artworkUrl30 else { continue }
            if urls.updateValue(url, forKey: id) != nil { continue }   // known: its place stays
            if order.count < capacity {
                order.append(id)
            } else {
                urls[order[start]] = nil
                order[start] = id
                start = (start + 1) % capacity
            }
        }
    }

    /// The artwork URL of track `trackId`, if it was answered lately.
    public func url(trackId: Int) -> String? { urls[trackId] }

    /// How many are remembered.
    public var count: Int { urls.count }
}
