/// One preview heard for at least five seconds, as `history.jsonl` keeps it (one a line). A
/// preview is not a listen: nothing is sent anywhere.
public struct HistoryEntry: Codable, Equatable, Sendable {
    /// When it stopped being heard, in seconds since 1970 (UTC).
    public var time: Int
    public var trackId: Int?
    public var artist: String?
    public var title: String?
    public var album: String?
    /// The store page: the way from a preview to buying the track.
    public var storeUrl: String?
    /// Seconds heard (playing, not paused).
    public var secondsHeard: Int

    public init(time: Int, track: Track, secondsHeard: Int) {
        self.time = time
        trackId = track.trackId
        artist = track.artistName
        title = track.trackName ?? track.collectionName
        album = track.collectionName
        storeUrl = track.trackViewUrl ?? track.collectionViewUrl
        self.secondsHeard = secondsHeard
    }
}
