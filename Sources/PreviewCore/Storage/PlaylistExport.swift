/// A list of tracks written for other players and for people: extended M3U (mpv and VLC play
/// it), JSON with every catalog field (the store links are the way from a preview to buying the
/// track), or XSPF. Text from the catalog is escaped for each format, never trusted.
public enum PlaylistExport: String, CaseIterable, Sendable {
    case m3u, json, xspf

    /// `tracks` as a playlist titled `title`, in this format.
    public func render(_ tracks: [Track], title: String) -> String {
        switch self {
        case .m3u: return Self.m3u(tracks, title: title)
        case .json: return Self.json(tracks, title: title)
        case .xspf: return Self.xspf(tracks, title: title)
        }
    }

    private static func m3u(_ tracks: [Track], title: String) -> String {
        var lines = ["#EXTM3U", "#PLAYLIST:" + oneLine(title)]
        for track in tracks {
            guard let url = track.previewUrl else { continue }
            let name = [track.artistName, track.trackName ?? track.collectionName].compactMap { $0 }.map(oneLine).joined(separator: " - ")
            lines.append("#EXTINF:-1," + name)
            if let album = track.collectionName { lines.append("#EXTALB:" + oneLine(album)) }
            if let artwork = track.artworkUrl100 { lines.append("#EXTIMG:" + oneLine(artwork)) }
            lines.append(oneLine(url))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func json(_ tracks: [Track], title: String) -> String {
        struct Playlist: Encodable { var title: String; var tracks: [Track] }
        guard let line = JSONLine.encode(Playlist(title: title, tracks: tracks)) else { return "" }
        return String(decoding: line, as: UTF8.self)
    }

    private static func xspf(_ tracks: [Track], title: String) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<playlist version="1" xmlns="http://xspf.org/ns/0/">"#,
                     "  <title>\(xml(title))</title>", "  <trackList>"]
        for track in tracks {
            lines.append("    <track>")
            let fields: [(String, String?)] = [("location", track.previewUrl), ("title", track.trackName ?? track.collectionName),
                                               ("creator", track.artistName), ("album", track.collectionName),
                                               ("image", track.artworkUrl100), ("info", track.trackViewUrl ?? track.collectionViewUrl)]
            for case let (name, value?) in fields { lines.append("      <\(name)>\(xml(value))</\(name)>") }
            lines.append("    </track>")
        }
        lines += ["  </trackList>", "</playlist>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` on one line: line breaks and other controls become spaces (an M3U line is one entry).
    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// `text` as XML character data: the five special characters escaped, controls XML 1.0 forbids dropped.
    private static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
