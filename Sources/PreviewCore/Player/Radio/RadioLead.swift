/// One place a radio batch may look, and the track that led there: the other songs of an artist
/// the listener marked or played, the songs of such a track's album, or its genre's chart. Leads
/// are tried in `Kind`'s order (marked artists, played artists, albums, the genre's chart).
public struct RadioLead: Equatable, Hashable, Sendable {
    /// Where it looks, in the order a batch tries them.
    public enum Kind: Int, Comparable, Sendable {
        case markedArtist, playedArtist, album, genreChart

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// The one catalog call that answers a lead (made through the engine's governed, cached client).
    public enum Call: Equatable, Hashable, Sendable {
        /// `lookup?id=ARTIST&entity=song`: the artist's songs.
        case artistSongs(Int)
        /// `lookup?id=ALBUM&entity=song`: the album's songs.
        case albumSongs(Int)
        /// `top --genre GENRE`: the genre's chart in the storefront.
        case genreChart(Int)
    }

    public var kind: Kind
    /// The catalog call that answers it.
    public var call: Call
    /// The track that led here (a marked or a played one).
    public var seed: Track

    /// A lead of `kind` from `seed`; nil when the seed lacks the id it needs.
    public init?(_ kind: Kind, seed: Track) {
        self.kind = kind
        self.seed = seed
        switch kind {
        case .markedArtist, .playedArtist:
            guard let id = seed.artistId else { return nil }
            call = .artistSongs(id)
        case .album:
            guard let id = seed.collectionId else { return nil }
            call = .albumSongs(id)
        case .genreChart:
            guard let id = seed.primaryGenreId else { return nil }
            call = .genreChart(id)
        }
    }

    /// What a skip counts against and a rotation remembers: "artist:ID", "album:ID", "genre:ID".
    public var key: String {
        switch call {
        case .artistSongs(let id): return "artist:\(id)"
        case .albumSongs(let id): return "album:\(id)"
        case .genreChart(let id): return "genre:\(id)"
        }
    }

    /// Whether `track` answers this lead (a track of the track memory, with no call).
    public func matches(_ track: Track) -> Bool {
        switch call {
        case .artistSongs(let id): return track.artistId == id
        case .albumSongs(let id): return track.collectionId == id
        case .genreChart(let id): return track.primaryGenreId == id
        }
    }

    /// The reason of a track the memory answered for this lead: for a genre, a song of it met
    /// before rather than its chart.
    public var remembered: RadioReason {
        guard kind == .genreChart else { return reason }
        let title = seed.trackName ?? seed.collectionName ?? "a track"
        return RadioReason("radio: more \(seed.primaryGenreName ?? "of its genre"), after \(seed.artistName ?? "its artist")'s \(title)", key: key)
    }

    /// The reason a track from this lead carries.
    public var reason: RadioReason {
        let title = seed.trackName ?? seed.collectionName ?? "a track"
        let artist = seed.artistName ?? "its artist"
        let text: String
        switch kind {
        case .markedArtist: text = "radio: more from \(artist), whose \(title) you marked"
        case .playedArtist: text = "radio: more from \(artist), whose \(title) you played"
        case .album: text = "radio: from the album \(seed.collectionName ?? "of \(title)"), after \(title)"
        case .genreChart: text = "radio: the \(seed.primaryGenreName ?? "genre's") chart, after \(artist)'s \(title)"
        }
        return RadioReason(text, key: key)
    }
}
