/// One item of the iTunes Search API's `results`, with Apple's field names.
///
/// Every field is optional because the API leaves out whatever does not apply (an artist result has no
/// `trackId`, a track without a preview has no `previewUrl`). Text from the API is untrusted: print it
/// through `TerminalText.sanitized` (see `TerminalText.swift`).
public struct Track: Codable, Equatable, Hashable, Sendable {
    public var wrapperType: String?
    public var kind: String?
    public var artistId: Int?
    public var collectionId: Int?
    public var trackId: Int?
    public var artistName: String?
    public var collectionArtistName: String?
    public var collectionName: String?
    public var trackName: String?
    public var collectionCensoredName: String?
    public var trackCensoredName: String?
    public var artistViewUrl: String?
    /// On artist results (`wrapperType` "artist"): the artist's page.
    public var artistLinkUrl: String?
    public var artistType: String?
    public var collectionViewUrl: String?
    public var trackViewUrl: String?
    public var previewUrl: String?
    public var artworkUrl30: String?
    public var artworkUrl60: String?
    public var artworkUrl100: String?
    public var collectionPrice: Double?
    public var trackPrice: Double?
    public var trackRentalPrice: Double?
    public var releaseDate: String?
    public var collectionExplicitness: String?
    public var trackExplicitness: String?
    public var discCount: Int?
    public var discNumber: Int?
    public var trackCount: Int?
    public var trackNumber: Int?
    public var trackTimeMillis: Int?
    public var country: String?
    public var currency: String?
    public var primaryGenreName: String?
    public var primaryGenreId: Int?
    public var contentAdvisoryRating: String?
    public var isStreamable: Bool?
    public var longDescription: String?
    public var shortDescription: String?

    /// A track with the given fields; the rest are nil.
    public init(trackId: Int? = nil, trackName: String? = nil, artistName: String? = nil,
                collectionName: String? = nil, previewUrl: String? = nil) {
        self.trackId = trackId
        self.trackName = trackName
        self.artistName = artistName
        self.collectionName = collectionName
        self.previewUrl = previewUrl
    }

    /// The preview URL when it is one previewd may fetch: absolute, http or https, with a host.
    /// Anything else (file:, data:, concat:, a bare path) is refused here, before any I/O.
    public var fetchablePreviewURL: String? {
        guard let url = previewUrl, PreviewURLPolicy.isFetchable(url) else { return nil }
        return url
    }

    /// Why this result is not queued, or nil when it can be: tracks and audiobooks with an http(s)
    /// preview play (a music video's or a film's sound only).
    public var unplayableReason: String? {
        guard isTrackLike else { return "\(Self.withArticle(kindName)), not a track" }
        guard let url = previewUrl, !url.isEmpty else {
            return isPodcast ? "a podcast has no preview (previewd plays the store's previews)" : "no preview"
        }
        guard PreviewURLPolicy.isFetchable(url) else {
            let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            return url.contains(":") && !scheme.isEmpty && scheme.count < 16
                ? "preview URL scheme \"\(scheme.prefix(16))\" is not http or https"
                : "preview URL is not an absolute http or https URL"
        }
        return nil
    }

    /// What this result is, in a listener's words: song, music video, film, audiobook, podcast,
    /// podcast episode, ebook, app, artist, album…
    public var kindName: String {
        switch wrapperType {
        case "artist": return "artist"
        case "collection": return "album"
        case "audiobook": return "audiobook"
        case "software": return "app"
        default: break
        }
        switch kind {
        case "song"?: return "song"
        case "music-video"?: return "music video"
        case "feature-movie"?: return "film"
        case "tv-episode"?: return "TV episode"
        case "podcast"?: return "podcast"
        case "podcast-episode"?: return "podcast episode"
        case "ebook"?, "book"?: return "ebook"
        case "software"?, "mac-software"?: return "app"
        case let other?: return TerminalText.sanitized(String(other.prefix(24)))
        case nil: return "result"
        }
    }

    /// One thing to play, not a collection or an artist: a track (a song, a music video, a film…)
    /// or an audiobook (which Apple wraps apart).
    public var isTrackLike: Bool { wrapperType == nil || wrapperType == "track" || wrapperType == "audiobook" }

    /// A podcast or one of its episodes: Apple gives them no preview.
    public var isPodcast: Bool { kind == "podcast" || kind == "podcast-episode" || wrapperType == "podcastEpisode" }

    /// Apple's audiobook results carry their id and title as a collection's (`collectionId`,
    /// `collectionName`, no `trackId`): give them a track's, so they queue, play and are found again
    /// by id like a song. The author stays `artistName`.
    public mutating func adoptCollectionIdentity() {
        guard wrapperType == "audiobook", trackId == nil, let id = collectionId else { return }
        trackId = id
        if trackName == nil { trackName = collectionName }
        if trackViewUrl == nil { trackViewUrl = collectionViewUrl }
        if trackPrice == nil { trackPrice = collectionPrice }
    }

    /// "a song", "an artist", "an audiobook".
    static func withArticle(_ noun: String) -> String {
        ("aeiou".contains(noun.first ?? "x") ? "an " : "a ") + noun
    }

    /// "Title — Artist", for logs and one-line human output.
    public var displayName: String {
        let title = trackName ?? collectionName ?? "Unknown title"
        guard let artist = artistName else { return title }
        return "\(title) — \(artist)"
    }
}
