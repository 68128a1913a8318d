#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The layout of previewd's files of tracks (the saved state, each saved list): JSON Lines, a
/// header object on the first line and one track per line after it, with the API's field names.
/// A person can read it, `jq` and any JSON Lines reader parse it, a list's size is read from its
/// first line alone, and a file cut short is told from a whole one by the header's `count`.
public struct TrackFile<Header: Codable & Sendable>: Sendable {
    /// The first line.
    public var header: Header
    /// The tracks, in order.
    public var tracks: [Track]

    public init(header: Header, tracks: [Track]) {
        self.header = header
        self.tracks = tracks
    }

    /// The file's bytes.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(header))
        bytes.append(UInt8(ascii: "\n"))
        for track in tracks {
            bytes += try encoder.encode(track)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// What could be read of `bytes`: the header (nil when the first line is not one) and the
    /// tracks that parse; `whole` is false when anything was wrong (a line that does not parse, or
    /// fewer or more tracks than the header counted).
    public static func decode(_ bytes: [UInt8], count: (Header) -> Int) -> (file: TrackFile?, whole: Bool) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        let decoder = JSONDecoder()
        guard let first = lines.first, let header = try? decoder.decode(Header.self, from: Data(first)) else { return (nil, false) }
        var tracks: [Track] = []
        var whole = true
        for line in lines.dropFirst() {
            if let track = try? decoder.decode(Track.self, from: Data(line)) { tracks.append(track) } else { whole = false }
        }
        if tracks.count != count(header) { whole = false }
        return (TrackFile(header: header, tracks: tracks), whole)
    }
}
