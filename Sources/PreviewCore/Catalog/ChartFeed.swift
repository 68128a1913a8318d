/// A top-songs chart as Apple publishes it, in either of its two JSON forms, read into chart
/// entries in rank order:
/// - the legacy RSS feed (`{cc}/rss/topsongs/…/json`): `feed.entry[]` with `im:name`, `im:artist`,
///   `link` (one of them the preview), `id.attributes.im:id`;
/// - the marketing-tools RSS v2 (`api/v2/{cc}/music/most-played/N/songs.json`): `feed.results[]`
///   with `id`, `name`, `artistName`, `releaseDate`, `genres`, `artworkUrl100`, `url` and no preview.
///
/// An entry is a placeholder for the song the lookup of its id returns: it carries no length (the
/// legacy feed's `im:duration` is the preview's, not the song's). Entries are read one by one (a
/// malformed one is counted in `skipped`); a feed in neither form, or with no entry readable, is
/// refused as a whole (an unexpected answer, never an empty chart).
public struct ChartFeed: Decodable, Sendable {
    /// Which of Apple's forms a feed was in.
    public enum Format: String, Sendable {
        case legacy, current
    }

    /// The chart's entries in rank order, each with its id (`trackId`, or an album's `collectionId`).
    public var tracks: [Track]
    /// Entries that could not be read.
    public var skipped: Int
    /// The form the feed was in.
    public var format: Format

    private enum Keys: String, CodingKey { case feed, entry, results }

    public init(from decoder: any Decoder) throws {
        let feed = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: Keys.self, forKey: .feed)
        let raw: [JSONValue]
        if feed.contains(.entry) {
            format = .legacy
            // One entry comes as an object, several as an array.
            switch try feed.decode(JSONValue.self, forKey: .entry) {
            case .array(let list): raw = list
            case .object(let one): raw = [.object(one)]
            case .null: raw = []
            default: throw DecodingError.dataCorruptedError(forKey: .entry, in: feed, debugDescription: "entry is not a list")
            }
        } else if feed.contains(.results) {
            format = .current
            guard case .array(let list) = try feed.decode(JSONValue.self, forKey: .results) else {
                throw DecodingError.dataCorruptedError(forKey: .results, in: feed, debugDescription: "results is not a list")
            }
            raw = list
        } else {
            throw DecodingError.keyNotFound(Keys.entry, .init(codingPath: [Keys.feed], debugDescription: "a feed with neither entry nor results"))
        }
        tracks = raw.compactMap(format == .legacy ? Self.legacyEntry : Self.currentEntry)
        skipped = raw.count - tracks.count
        if tracks.isEmpty, !raw.isEmpty {
            throw DecodingError.dataCorrupted(.init(codingPath: [Keys.feed], debugDescription: "no chart entry could be read"))
        }
    }

    /// The id an entry (or the lookup's record of it) goes by: a song's, or an album's.
    public static func id(of track: Track) -> Int? { track.trackId ?? track.collectionId }

    /// A legacy entry as a track; nil when it has no id or name.
    static func legacyEntry(_ entry: JSONValue) -> Track? {
        guard case .object = entry,
              let id = entry["id"]?["attributes"]?["im:id"].flatMap(Self.parseID),
              let name = entry["im:name"]?["label"]?.stringValue else { return nil }
        var track = song(id: id, name: name, artist: entry["im:artist"]?["label"]?.stringValue)
        track.collectionName = entry["im:collection"]?["im:name"]?["label"]?.stringValue
        let links: [JSONValue]
        switch entry["link"] {
        case .array(let list)?: links = list
        case let one?: links = [one]
        case nil: links = []
        }
        for link in links {
            let attributes = link["attributes"]
            if attributes?["im:assetType"]?.stringValue == "preview" {
                track.previewUrl = attributes?["href"]?.stringValue
            } else if attributes?["rel"]?.stringValue == "alternate" {
                track.trackViewUrl = attributes?["href"]?.stringValue
            }
        }
        let price = entry["im:price"]?["attributes"]
        track.trackPrice = price?["amount"]?.stringValue.flatMap(Double.init)
        track.currency = price?["currency"]?.stringValue
        track.primaryGenreName = entry["category"]?["attributes"]?["label"]?.stringValue
        track.releaseDate = entry["im:releaseDate"]?["label"]?.stringValue
        if case .array(let images)? = entry["im:image"] { track.artworkUrl100 = images.last?["label"]?.stringValue }
        track.artistViewUrl = entry["im:artist"]?["attributes"]?["href"]?.stringValue
        return track
    }

    /// A v2 entry as a track; nil when it has no id or name.
    static func currentEntry(_ entry: JSONValue) -> Track? {
        guard case .object = entry, let id = entry["id"].flatMap(Self.parseID), let name = entry["name"]?.stringValue else { return nil }
        var track = song(id: id, name: name, artist: entry["artistName"]?.stringValue)
        if let kind = entry["kind"]?.stringValue, kind.hasPrefix("album") {   // an album chart: its entries are albums
            track = Track(collectionName: name)
            track.wrapperType = "collection"
            track.collectionId = id
            track.artistName = entry["artistName"]?.stringValue
        }
        track.artistId = entry["artistId"].flatMap(Self.parseID)
        track.releaseDate = entry["releaseDate"]?.stringValue
        track.artworkUrl100 = entry["artworkUrl100"]?.stringValue
        track.trackViewUrl = entry["url"]?.stringValue
        track.artistViewUrl = entry["artistUrl"]?.stringValue
        track.contentAdvisoryRating = entry["contentAdvisoryRating"]?.stringValue
        if case .array(let genres)? = entry["genres"] {
            // "Music" is the store's umbrella genre, listed after the song's own.
            track.primaryGenreName = genres.compactMap { $0["name"]?.stringValue }.first { $0 != "Music" }
        }
        return track
    }

    private static func song(id: Int, name: String, artist: String?) -> Track {
        var track = Track(trackId: id, trackName: name, artistName: artist)
        track.wrapperType = "track"
        track.kind = "song"
        return track
    }

    /// An id as Apple writes it in feeds: a string of digits (or, at times, a number).
    private static func parseID(_ value: JSONValue) -> Int? {
        if let text = value.stringValue { return Int(text.trimmingWhitespace()).flatMap { $0 > 0 ? $0 : nil } }
        if case .number(let n) = value, n > 0, n <= JSONValue.maxExactInteger, n == n.rounded() { return Int(n) }
        return nil
    }
}
