import Foundation
import PreviewCore

/// The catalog the stand-in serves: iTunes-shaped tracks, searched and looked up the way the real
/// API does closely enough for tests (every word of the term in artist, title or album).
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
        let words = term.lowercased().split(whereSeparator: { $0 == " " || $0 == "+" })
        let hits = tracks.filter { track in
            let text = [track.artistName, track.trackName, track.collectionName].compactMap { $0 }.joined(separator: " ").lowercased()
            return words.allSatisfy { text.contains($0) }
        }
        return Array(hits.prefix(max(0, limit)))
    }

    /// Tracks whose trackId, collectionId or artistId is in `ids`.
    public func lookup(ids: [Int]) -> [Track] {
        tracks.filter { t in ids.contains { $0 == t.trackId || $0 == t.collectionId || $0 == t.artistId } }
    }
}
