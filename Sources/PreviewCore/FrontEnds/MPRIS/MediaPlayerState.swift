/// What MPRIS2 (the desktop's media controls) is shown of the player, worked out from a status
/// report: the `org.mpris.MediaPlayer2.Player` properties, in the specification's terms.
public struct MediaPlayerState: Equatable, Sendable {
    /// "Playing", "Paused" or "Stopped".
    public var playbackStatus = "Stopped"
    /// "None", "Track" or "Playlist" (repeat off, one, all).
    public var loopStatus = "None"
    public var shuffle = false
    /// 0…1 (previewd's 0–100).
    public var volume = 1.0
    public var canGoNext = false
    public var canGoPrevious = false
    public var canPlay = false
    public var canPause = false
    public var canSeek = false
    public var metadata = Metadata()
    /// Where the current track is, in µs, when the report was made; it moves on while `advancing`.
    public var positionMicroseconds: Int64 = 0
    /// True while the position moves with the clock (playing, not buffering).
    public var advancing = false

    /// The Metadata map's values; nil and 0 are left out of it.
    public struct Metadata: Equatable, Sendable {
        /// An object path naming the queue entry (`/org/previewd/track/ID`, the queue item's id); nil when nothing is current.
        public var trackID: String?
        public var lengthMicroseconds: Int64 = 0
        /// `file://` URL of the cached artwork.
        public var artURL: String?
        public var title: String?
        public var artist: String?
        public var albumArtist: String?
        public var album: String?
        public var genre: String?
        /// The store page.
        public var url: String?
        public var contentCreated: String?
        public var trackNumber: Int32 = 0
        public var discNumber: Int32 = 0

        public init() {}
    }

    /// Nothing playing, nothing queued.
    public init() {}

    /// What MPRIS shows for `status`.
    public init(_ status: StatusReport) {
        switch status.state {
        case .playing, .loading: playbackStatus = "Playing"   // loading: a track was asked for and starts by itself
        case .paused: playbackStatus = "Paused"
        case .idle, .stopped: playbackStatus = "Stopped"
        }
        switch status.repeat {
        case .off: loopStatus = "None"
        case .one: loopStatus = "Track"
        case .all: loopStatus = "Playlist"
        }
        shuffle = status.shuffle
        volume = status.muted ? 0 : Double(status.volume) / 100
        let current = status.index != nil && (status.state == .playing || status.state == .paused || status.state == .loading)
        canGoNext = status.hasNext
        canGoPrevious = status.queueLength > 0   // prev at the first track plays it again
        canPlay = status.queueLength > 0
        canPause = current
        canSeek = current && status.durationMs != nil
        positionMicroseconds = Int64(status.positionMs) * 1000
        advancing = status.state == .playing && !status.buffering && status.output == "ok"
        guard let id = status.id, let track = status.track else { return }
        metadata.trackID = "/org/previewd/track/\(id)"   // the queue item's id: the same whatever is edited around it
        // What plays: the preview's length (decoded, else the estimate), never the whole song's.
        metadata.lengthMicroseconds = Int64(PreviewLength.ms(track, decodedMs: status.durationMs)) * 1000
        metadata.artURL = status.artwork.map(Self.fileURL)
        metadata.title = track.trackName
        metadata.artist = track.artistName
        metadata.albumArtist = track.collectionArtistName ?? track.artistName
        metadata.album = track.collectionName
        metadata.genre = track.primaryGenreName
        metadata.url = track.trackViewUrl
        metadata.contentCreated = track.releaseDate
        metadata.trackNumber = Int32(clamping: max(0, track.trackNumber ?? 0))
        metadata.discNumber = Int32(clamping: max(0, track.discNumber ?? 0))
    }

    /// The properties whose values differ from `old` (all of them when there was none): the
    /// PropertiesChanged signal's list. Position is never in it (clients are told of jumps by Seeked).
    public func changedProperties(since old: MediaPlayerState?) -> [String] {
        var names: [String] = []
        func check<T: Equatable>(_ name: String, _ value: (MediaPlayerState) -> T) {
            if old.map({ value($0) != value(self) }) ?? true { names.append(name) }
        }
        check("PlaybackStatus") { $0.playbackStatus }
        check("LoopStatus") { $0.loopStatus }
        check("Shuffle") { $0.shuffle }
        check("Volume") { $0.volume }
        check("Metadata") { $0.metadata }
        check("CanGoNext") { $0.canGoNext }
        check("CanGoPrevious") { $0.canGoPrevious }
        check("CanPlay") { $0.canPlay }
        check("CanPause") { $0.canPause }
        check("CanSeek") { $0.canSeek }
        return names
    }

    /// `file://` and the path, its bytes outside the unreserved set and "/" percent-encoded.
    static func fileURL(_ path: String) -> String {
        var url = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                url.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                url.unicodeScalars.append("%")
                url.unicodeScalars.append(hex[Int(byte >> 4)])
                url.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return url
    }
}
