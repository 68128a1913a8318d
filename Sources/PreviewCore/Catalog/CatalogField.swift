/// A field of the music catalog a search can be held to, and the `attribute` Apple names it by.
/// previewctl's `--artist`/`--album`/`--song` and MPD's tag filters both ask through
/// `CatalogQuery.music(_:in:entity:limit:)`, so the two cannot drift apart.
public enum CatalogField: String, CaseIterable, Sendable {
    case artist, album, song, genre

    /// Apple's `attribute` for this field among music (`media=music`).
    public var attribute: String {
        switch self {
        case .artist: return "artistTerm"
        case .album: return "albumTerm"
        case .song: return "songTerm"
        case .genre: return "genreIndex"
        }
    }
}

extension CatalogQuery {
    /// A music search of `words` in `field` alone (any field when nil): `media=music`, Apple's
    /// `attribute` for the field, and `entity` (songs unless told: `album` lists albums).
    public static func music(_ words: String, in field: CatalogField?, entity: String = "song",
                             limit: Int = CatalogQuery.limits.default) -> CatalogQuery {
        CatalogQuery(term: words, media: "music", entity: entity, attribute: field?.attribute, limit: limit)
    }
}
