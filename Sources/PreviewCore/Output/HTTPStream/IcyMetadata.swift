/// ICY ("SHOUTcast") metadata as MPD's httpd output sends it: every `interval` bytes of audio, one
/// length byte (in 16-byte units) and `StreamTitle='…';` padded with zeros, or a single 0 when the
/// title has not changed. Only a listener whose request said `Icy-MetaData: 1` gets it.
public enum IcyMetadata {
    /// Audio bytes between two metadata blocks (MPD's value).
    public static let interval = 8192
    /// The largest block: 255 × 16 bytes.
    public static let maxBlockBytes = 255 * 16

    /// The block announcing `title` ("Artist - Title"): the length byte, then the text padded to a
    /// multiple of 16. Titles come from the catalog: a quote or semicolon would end the field early
    /// in players that split on them, so they become ’ and ,; control characters are dropped; a
    /// title too long for the block is cut on a character.
    public static func block(title: String) -> [UInt8] {
        var text = ""
        for character in title {
            switch character {
            case "'": text.append("\u{2019}")
            case ";": text.append(",")
            default:
                if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) { continue }
                text.append(character)
            }
        }
        let head = Array("StreamTitle='".utf8), tail = Array("';".utf8)
        var body = Array(text.utf8)
        let room = maxBlockBytes - head.count - tail.count
        if body.count > room {
            var cut = room
            while cut > 0, body[cut] & 0xC0 == 0x80 { cut -= 1 }   // not inside a UTF-8 sequence
            body.removeSubrange(cut...)
        }
        let payload = head + body + tail
        let units = (payload.count + 15) / 16
        return [UInt8(units)] + payload + [UInt8](repeating: 0, count: units * 16 - payload.count)
    }

    /// The block sent when the title has not changed.
    public static let unchanged: [UInt8] = [0]

    /// "Artist - Title", the title alone, or the artist alone.
    public static func streamTitle(title: String?, artist: String?) -> String {
        switch (artist?.isEmpty == false ? artist : nil, title?.isEmpty == false ? title : nil) {
        case let (artist?, title?): return "\(artist) - \(title)"
        case let (nil, title?): return title
        case let (artist?, nil): return artist
        default: return ""
        }
    }
}
