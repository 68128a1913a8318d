import PreviewCore

/// A catalog track as an MPD song: `file: itunes:track:<trackId>`, the tags the client enabled,
/// `Time` and `duration` (what plays: the preview, `PreviewLength`; the song's own length is the
/// `Comment` tag), and, for a queue item, `Pos` and `Id` (the item's stable id).
public enum MPDSong {
    /// The URI of a catalog track (`itunes:track:<trackId>`), or its preview URL when it has no id.
    public static func uri(of track: Track) -> String {
        if let id = track.trackId { return "itunes:track:\(id)" }
        return track.previewUrl ?? "itunes:unknown"
    }

    /// Adds `track`'s fields to `response`: its tags among `tags`, its preview's length (`previewMs`
    /// once decoded, else the estimate), and its queue place when it has one.
    public static func add(_ track: Track, to response: inout MPDResponse, tags: Set<MPDTag> = Set(MPDTag.allCases),
                           position: Int? = nil, id: Int? = nil, previewMs: Int? = nil) {
        response.add("file", uri(of: track))
        for tag in MPDTag.allCases where tags.contains(tag) {
            if let value = tag.value(of: track), !value.isEmpty { response.add(tag.rawValue, value) }
        }
        let ms = PreviewLength.ms(track, decodedMs: previewMs)
        response.add("Time", (ms + 500) / 1000)
        response.add("duration", MPDResponse.seconds(ms: ms))
        if let position { response.add("Pos", position) }
        if let id { response.add("Id", id) }
    }

    /// What a URI names: a catalog track, album or artist (`itunes:KIND:ID`), or a preview URL.
    public enum Target: Equatable, Sendable {
        case track(Int)
        case album(Int)
        case artist(Int)
        case url(String)
    }

    /// Reads `uri`, or says it names nothing previewd can add.
    public static func target(_ uri: String) throws(MPDError) -> Target {
        let lower = uri.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .url(uri) }
        // A local file: MPD lets only its local clients read one; previewd plays no file.
        if lower.hasPrefix("file://") || uri.hasPrefix("/") { throw MPDError(.permission, "Access denied") }
        let parts = uri.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "itunes", let id = Int(parts[2]), id > 0 {
            switch parts[1] {
            case "track": return .track(id)
            case "album": return .album(id)
            case "artist": return .artist(id)
            default: break
            }
        }
        throw MPDError(.noExist, "No such directory")
    }
}
