/// A search of the iTunes Store as a listener asks it: a free term and/or the structured fields of the
/// iTunes v2 seed (artist, album, song), plus Apple's own parameters. `plan` turns it into the request
/// Apple documents.
public struct CatalogQuery: Codable, Equatable, Hashable, Sendable {
    public var term: String?
    public var artist: String?
    public var album: String?
    public var song: String?
    /// Apple's `media` (music, movie, musicVideo, podcast, audiobook, all, …).
    public var media: String?
    /// Apple's `entity` (song, album, musicArtist, musicTrack, movie, …); overrides the planned one.
    public var entity: String?
    /// Apple's `attribute` (artistTerm, songTerm, albumTerm, …).
    public var attribute: String?
    /// Results per page, 1–200 (Apple's bounds).
    public var limit: Int
    /// Results skipped, for paging.
    public var offset: Int
    /// Storefront; the daemon's when nil.
    public var country: String?
    /// Include explicit results (Apple's default) or not.
    public var explicit: Bool?
    /// List the albums found (`entity=album`) instead of queueing the first one's songs
    /// (`--artist NAME --albums`: the artist's albums).
    public var albums: Bool?

    /// Apple's bounds for `limit`, and previewd's default.
    public static let limits = (default: 50, range: 1...200)
    /// The `media` values Apple documents.
    public static let mediaTypes: Set<String> = [
        "movie", "podcast", "music", "musicVideo", "audiobook", "shortFilm", "tvShow", "software", "ebook", "all",
    ]
    /// The `entity` values Apple documents, over every media type.
    public static let entities: Set<String> = [
        "movieArtist", "movie", "podcastAuthor", "podcast", "musicArtist", "musicTrack", "album", "musicVideo",
        "mix", "song", "audiobookAuthor", "audiobook", "shortFilmArtist", "shortFilm", "tvEpisode", "tvSeason",
        "software", "iPadSoftware", "macSoftware", "ebook", "allArtist", "allTrack", "podcastEpisode",
    ]

    /// A query; at least one of `term`, `artist`, `album`, `song` must be non-empty (see `validate`).
    public init(term: String? = nil, artist: String? = nil, album: String? = nil, song: String? = nil,
                media: String? = nil, entity: String? = nil, attribute: String? = nil,
                limit: Int = CatalogQuery.limits.default, offset: Int = 0, country: String? = nil, explicit: Bool? = nil,
                albums: Bool? = nil) {
        self.term = term
        self.artist = artist
        self.album = album
        self.song = song
        self.media = media
        self.entity = entity
        self.attribute = attribute
        self.limit = limit
        self.offset = offset
        self.country = country
        self.explicit = explicit
        self.albums = albums
    }

    /// Checks every field against Apple's documented values; the message says what to change.
    public func validate() throws(ControlError) {
        let words = [term, artist, album, song].compactMap { $0?.trimmingWhitespace() }
        guard words.contains(where: { !$0.isEmpty }) else {
            throw ControlError(.badArgument, "give a search term, --artist, --album or --song")
        }
        guard words.joined().utf8.count <= 1000 else { throw ControlError(.badArgument, "search terms are too long") }
        guard Self.limits.range.contains(limit) else {
            throw ControlError(.badArgument, "limit must be between 1 and 200 (got \(limit))")
        }
        guard (0...10_000).contains(offset) else { throw ControlError(.badArgument, "offset must be 0–10000 (got \(offset))") }
        if let media, !Self.mediaTypes.contains(media) {
            throw ControlError(.badArgument, "unknown media \"\(media.prefix(40))\"; one of: \(Self.mediaTypes.sorted().joined(separator: ", "))")
        }
        if let entity, !Self.entities.contains(entity) {
            throw ControlError(.badArgument, "unknown entity \"\(entity.prefix(40))\"; one of: \(Self.entities.sorted().joined(separator: ", "))")
        }
        if let attribute, !(1...40).contains(attribute.count) || !attribute.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ControlError(.badArgument, "attribute must be one of Apple's names, e.g. artistTerm, songTerm, albumTerm")
        }
        if let country, !CountryCode.isValid(country) {
            throw ControlError(.badArgument, CountryCode.problem(country))
        }
    }

    /// The request for this query: Apple's parameters in order, and whether the answer is albums whose
    /// songs are then looked up (`lookup?id=COLLECTION&entity=song`).
    public var plan: SearchPlan {
        let given = { (s: String?) -> String? in
            guard let s = s?.trimmingWhitespace(), !s.isEmpty else { return nil }
            return s
        }
        let (free, a, b, c) = (given(term), given(artist), given(album), given(song))
        // The seed's cases: song given → songs; album without song → albums; artist alone → the
        // artist's songs. A field given alone is asked of that field only (Apple's attribute), so
        // Apple does not match the words in titles and other media.
        let planned: String?
        var field: CatalogField?
        if c != nil { planned = "song" }
        else if b != nil { planned = "album"; field = a == nil && free == nil ? .album : nil }
        else if a != nil {
            // Songs (or albums) are music's entities; another media keeps its own default.
            planned = media != nil && media != "music" && free == nil ? nil : (albums == true ? "album" : "song")
            field = free == nil ? .artist : nil
        }
        else { planned = media == nil ? "song" : (albums == true ? "album" : nil) }
        let chosen = entity ?? planned
        let inMusic = media == nil || media == "music" || media == "musicVideo"
        let fieldAttribute = inMusic ? field?.attribute : nil
        var items: [(String, String)] = [("term", [free, a, b, c].compactMap { $0 }.joined(separator: " "))]
        if let media { items.append(("media", media)) }
        else if chosen == "song" || chosen == "album" || fieldAttribute != nil { items.append(("media", "music")) }
        if let chosen { items.append(("entity", chosen)) }
        if let attribute = attribute ?? fieldAttribute { items.append(("attribute", attribute)) }
        items.append(("limit", String(limit)))
        if offset > 0 { items.append(("offset", String(offset))) }
        if let explicit { items.append(("explicit", explicit ? "Yes" : "No")) }
        return SearchPlan(path: "search", items: items, expandsAlbums: chosen == "album" && albums != true)
    }

    /// The same query one page further.
    public var nextPage: CatalogQuery {
        var next = self
        next.offset += limit
        return next
    }

    /// A short human description ("artist "X", song "Y"").
    public var summary: String {
        var parts: [String] = []
        if let term, !term.isEmpty { parts.append("\"\(term)\"") }
        if let artist { parts.append("artist \"\(artist)\"") }
        if let album { parts.append("album \"\(album)\"") }
        if let song { parts.append("song \"\(song)\"") }
        return TerminalText.sanitized(parts.joined(separator: ", "))
    }
}

/// One call of the API: a path under the API root and its query parameters, in order. The country
/// is added by the client.
public struct SearchPlan: Equatable, Sendable {
    /// `search` or `lookup`.
    public var path: String
    /// Query parameters in order.
    public var items: [(String, String)]
    /// True when the results are albums whose songs are to be looked up and queued.
    public var expandsAlbums: Bool

    /// A plan of `path` with `items`.
    public init(path: String, items: [(String, String)], expandsAlbums: Bool = false) {
        self.path = path
        self.items = items
        self.expandsAlbums = expandsAlbums
    }

    public static func == (a: SearchPlan, b: SearchPlan) -> Bool {
        a.path == b.path && a.expandsAlbums == b.expandsAlbums && a.items.elementsEqual(b.items, by: ==)
    }
}
