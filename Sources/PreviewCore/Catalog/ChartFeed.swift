/// The top-songs RSS feed in its JSON form (`feed.entry[]` with `im:name`, `im:artist`, `link`, …),
/// read into `Track`s. Entries are read one by one: a malformed entry is counted in `skipped`.
public struct ChartFeed: Decodable, Sendable {
    /// The chart's tracks in rank order; `previewUrl` is set when the entry links a preview.
    public var tracks: [Track]
    /// Entries that could not be read.
    public var skipped: Int

    private enum Keys: String, CodingKey { case feed, entry }

    public init(from decoder: any Decoder) throws {
        let feed = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: Keys.self, forKey: .feed)
        // One entry comes as an object, several as an array; no entry at all is an empty chart.
        let raw: [JSONValue]
        switch try feed.decodeIfPresent(JSONValue.self, forKey: .entry) {
        case .array(let list)?: raw = list
        case .object(let one)?: raw = [.object(one)]
        case nil, .null?: raw = []
        default: throw DecodingError.dataCorruptedError(forKey: .entry, in: feed, debugDescription: "entry is not a list")
        }
        tracks = raw.compactMap(Self.track)
        skipped = raw.count - tracks.count
    }

    /// One entry as a track; nil when it has no id or name.
    static func track(_ entry: JSONValue) -> Track? {
        guard case .object = entry,
              let id = entry["id"]?["attributes"]?["im:id"]?.stringValue.flatMap(Int.init),
              let name = entry["im:name"]?["label"]?.stringValue else { return nil }
        var track = Track(trackId: id, trackName: name, artistName: entry["im:artist"]?["label"]?.stringValue,
                          collectionName: entry["im:collection"]?["im:name"]?["label"]?.stringValue)
        track.wrapperType = "track"
        track.kind = "song"
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
                track.trackTimeMillis = link["im:duration"]?["label"]?.stringValue.flatMap(Int.init)
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
        track.artistLinkUrl = entry["im:artist"]?["attributes"]?["href"]?.stringValue
        return track
    }
}
