import PreviewCore

/// The MPD tags previewd can fill from a catalog entry, in the order `tagtypes` lists them.
public enum MPDTag: String, CaseIterable, Sendable, Hashable {
    case artist = "Artist"
    case album = "Album"
    case albumArtist = "AlbumArtist"
    case title = "Title"
    case track = "Track"
    case genre = "Genre"
    case date = "Date"
    case disc = "Disc"
    /// The song's own length (`full song 3:07`), which a client may show beside the preview's
    /// `Time`: MPD's `Comment` tag, the one free text Cantata, ncmpcpp (`%C`) and GMPC show.
    case comment = "Comment"

    /// The tag named `name`, however it is capitalised (clients send `artist`, `Artist`, `ARTIST`).
    public init?(named name: String) {
        let lower = name.lowercased()
        guard let tag = Self.allCases.first(where: { $0.rawValue.lowercased() == lower }) else { return nil }
        self = tag
    }

    /// Every tag name MPD 0.23 knows (src/tag/Names.c), lowercased: the ones previewd cannot fill
    /// are taken and ignored by `tagtypes enable`, and match nothing in a filter.
    public static let mpdNames: Set<String> = [
        "artist", "artistsort", "album", "albumsort", "albumartist", "albumartistsort", "title", "titlesort", "track",
        "name", "genre", "mood", "date", "originaldate", "composer", "composersort", "performer", "conductor", "work",
        "ensemble", "movement", "movementnumber", "location", "grouping", "comment", "disc", "label",
        "musicbrainz_artistid", "musicbrainz_albumid", "musicbrainz_albumartistid", "musicbrainz_trackid",
        "musicbrainz_releasegroupid", "musicbrainz_releasetrackid", "musicbrainz_workid",
    ]

    /// This tag's value for `track`, or nil when the catalog does not say.
    public func value(of track: Track) -> String? {
        switch self {
        case .artist: return track.artistName
        case .album: return track.collectionName
        case .albumArtist: return track.collectionArtistName ?? track.artistName
        case .title: return track.trackName
        case .track: return track.trackNumber.map(String.init)
        case .genre: return track.primaryGenreName
        case .date: return track.releaseDate.map { String($0.prefix(10)) }
        case .disc: return track.discNumber.map(String.init)
        case .comment: return track.trackTimeMillis.flatMap { $0 > 0 ? "full song \(DisplayText.clock($0))" : nil }
        }
    }

    /// The catalog field that searches this tag alone, when there is one (its `attribute` is
    /// previewctl's for the same field: `CatalogField`).
    var catalogField: CatalogField? {
        switch self {
        case .artist, .albumArtist: return .artist
        case .album: return .album
        case .title: return .song
        case .genre: return .genre
        case .track, .date, .disc, .comment: return nil
        }
    }
}
