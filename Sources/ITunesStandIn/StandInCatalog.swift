import Foundation
import PreviewCore

/// The catalog the stand-in serves: iTunes-shaped tracks, searched, looked up and charted the way
/// the real API does closely enough for tests. Collections and artists are derived from the tracks.
public struct StandInCatalog: Sendable {
    /// The tracks, in order.
    public var tracks: [Track]

    /// Loads an iTunes JSON answer, putting `base` where the file says `{{BASE}}`.
    public init(contentsOf url: URL, base: String) throws {
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "{{BASE}}", with: base)
        tracks = try JSONDecoder().decode(SearchResponse.self, from: Data(text.utf8)).results
    }

    /// A catalog of `tracks`.
    public init(tracks: [Track]) { self.tracks = tracks }

    /// Tracks matching every word of `term`, at most `limit`.
    public func search(term: String, limit: Int) -> [Track] {
        search(["term": term, "limit": String(limit)])
    }

    /// `/search`: every word of `term` in artist, title or album (only the one Apple's `attribute`
    /// names: artistTerm, albumTerm, songTerm); `entity` album or musicArtist answers the matching
    /// collections or artists; `offset` and `limit` page.
    public func search(_ query: [String: String]) -> [Track] {
        let words = (query["term"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "+" })
        let fields: (Track) -> [String?] = switch query["attribute"] {
        case "artistTerm"?: { [$0.artistName] }
        case "albumTerm"?: { [$0.collectionName] }
        case "songTerm"?: { [$0.trackName] }
        default: { [$0.artistName, $0.trackName, $0.collectionName] }
        }
        let hits = tracks.filter { track in
            let text = fields(track).compactMap { $0 }.joined(separator: " ").lowercased()
            return words.allSatisfy { text.contains($0) }
        }
        let shaped: [Track]
        switch query["entity"] {
        case "album"?: shaped = unique(hits.compactMap { Self.collection(of: $0) }, by: \.collectionId)
        case "musicArtist"?: shaped = unique(hits.compactMap { Self.artist(of: $0) }, by: \.artistId)
        default: shaped = hits
        }
        let offset = Int(query["offset"] ?? "") ?? 0
        let limit = Int(query["limit"] ?? "") ?? 50
        return Array(shaped.dropFirst(max(0, offset)).prefix(max(0, limit)))
    }

    /// `/lookup?id=…[&entity=song][&limit=N]`: each id's own entry (track, collection or artist),
    /// followed with `entity=song` by its songs.
    public func lookup(_ query: [String: String]) -> [Track] {
        let ids = (query["id"] ?? "").split(separator: ",").compactMap { Int($0) }
        let songs = query["entity"] == "song"
        let limit = Int(query["limit"] ?? "") ?? 50
        var out: [Track] = []
        for id in ids {
            if let track = tracks.first(where: { $0.trackId == id }) {
                out.append(track)
            } else if let member = tracks.first(where: { $0.collectionId == id }), let album = Self.collection(of: member) {
                out.append(album)
                if songs { out += tracks.filter { $0.collectionId == id }.prefix(limit) }
            } else if let member = tracks.first(where: { $0.artistId == id }), let artist = Self.artist(of: member) {
                out.append(artist)
                if songs { out += tracks.filter { $0.artistId == id }.prefix(limit) }
            }
        }
        return out
    }

    /// Tracks whose trackId, collectionId or artistId is in `ids`.
    public func lookup(ids: [Int]) -> [Track] {
        tracks.filter { t in ids.contains { $0 == t.trackId || $0 == t.collectionId || $0 == t.artistId } }
    }

    /// `/{cc}/rss/topsongs/limit=N[/genre=G]/json`: the tracks with a preview, in catalog order. Like
    /// the real feed at times, every second entry has no preview link (clients must look it up).
    public func chart(path: String) -> JSONValue {
        let limit = path.split(separator: "/").first { $0.hasPrefix("limit=") }.flatMap { Int($0.dropFirst(6)) } ?? 10
        let entries = tracks.filter { $0.previewUrl != nil && $0.trackId != nil }.prefix(limit).enumerated().map { i, t in
            var links: [JSONValue] = [.object(["attributes": .object(["rel": .string("alternate"), "type": .string("text/html"),
                                                                      "href": .string(t.trackViewUrl ?? "")])])]
            if i % 2 == 0 {
                links.append(.object(["attributes": .object(["rel": .string("enclosure"), "type": .string("audio/x-m4a"),
                                                             "href": .string(t.previewUrl ?? ""), "im:assetType": .string("preview")]),
                                      "im:duration": .object(["label": .string(String(t.trackTimeMillis ?? 30000))])]))
            }
            let label = { (s: String?) in JSONValue.object(["label": .string(s ?? "")]) }
            return JSONValue.object([
                "im:name": label(t.trackName),
                "im:artist": label(t.artistName),
                "im:collection": .object(["im:name": label(t.collectionName)]),
                "im:price": .object(["label": .string("$\(t.trackPrice ?? 0)"),
                                     "attributes": .object(["amount": .string(String(t.trackPrice ?? 0)), "currency": .string(t.currency ?? "USD")])]),
                "im:releaseDate": label(t.releaseDate),
                "category": .object(["attributes": .object(["label": .string(t.primaryGenreName ?? "")])]),
                "id": .object(["label": .string(t.trackViewUrl ?? ""), "attributes": .object(["im:id": .string(String(t.trackId!))])]),
                "link": .array(links),
            ])
        }
        return .object(["feed": .object(["entry": .array(Array(entries)), "title": .object(["label": .string("Top Songs")])])])
    }

    /// `/api/v2/{cc}/music/most-played/{N}/songs.json`: the same songs as `chart`, in Apple's
    /// marketing-tools form (ids as strings, no preview links).
    public func currentChart(path: String) -> JSONValue {
        let parts = path.split(separator: "/")
        let limit = parts.count >= 6 ? Int(parts[5]) ?? 10 : 10
        let results = tracks.filter { $0.previewUrl != nil && $0.trackId != nil }.prefix(limit).map { t in
            JSONValue.object([
                "id": .string(String(t.trackId!)), "name": .string(t.trackName ?? ""), "artistName": .string(t.artistName ?? ""),
                "releaseDate": .string(String((t.releaseDate ?? "").prefix(10))), "kind": .string("songs"),
                "artworkUrl100": .string(t.artworkUrl100 ?? ""), "url": .string(t.trackViewUrl ?? ""),
                "genres": .array([.object(["genreId": .string(String(t.primaryGenreId ?? 34)), "name": .string(t.primaryGenreName ?? "Music")])]),
            ])
        }
        return .object(["feed": .object(["title": .string("Top Songs"), "country": .string(String(parts.count > 2 ? parts[2] : "us")),
                                         "results": .array(Array(results))])])
    }

    static func collection(of t: Track) -> Track? {
        guard let id = t.collectionId else { return nil }
        var album = Track(collectionName: t.collectionName)
        album.wrapperType = "collection"
        album.collectionId = id
        album.artistId = t.artistId
        album.artistName = t.artistName
        album.collectionViewUrl = t.collectionViewUrl
        album.collectionPrice = t.collectionPrice
        album.releaseDate = t.releaseDate
        album.primaryGenreName = t.primaryGenreName
        album.currency = t.currency
        album.trackCount = t.trackCount
        return album
    }

    static func artist(of t: Track) -> Track? {
        guard let id = t.artistId else { return nil }
        var artist = Track(artistName: t.artistName)
        artist.wrapperType = "artist"
        artist.artistType = "Artist"
        artist.artistId = id
        artist.artistLinkUrl = "https://music.apple.com/us/artist/\(id)?uo=4"
        artist.primaryGenreName = t.primaryGenreName
        return artist
    }

    private func unique(_ items: [Track], by key: KeyPath<Track, Int?>) -> [Track] {
        var seen = Set<Int>()
        return items.filter { item in item[keyPath: key].map { seen.insert($0).inserted } ?? false }
    }
}
