/// How results are ordered (the seed's sortable fields); applies to the printed list and to the queue.
public struct TrackSort: Codable, Equatable, Hashable, Sendable {
    /// The field sorted by.
    public enum Key: String, Codable, CaseIterable, Sendable {
        case duration, genre, price, released, title, artist
    }

    public var key: Key
    /// Largest, latest or Z first.
    public var descending: Bool

    /// A sort by `key`.
    public init(_ key: Key, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    /// `tracks` in this order; stable, and tracks without the field (or a price of -1, Apple's
    /// "not sold alone") go last in either direction.
    public func sorted(_ tracks: [Track]) -> [Track] {
        let keyed = tracks.enumerated().map { (offset: $0.offset, track: $0.element, value: value(of: $0.element)) }
        return keyed.sorted { a, b in
            switch (a.value, b.value) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return false
            case (_, nil): return true
            case (let x?, let y?):
                if x == y { return a.offset < b.offset }
                return descending ? y < x : x < y
            }
        }.map(\.track)
    }

    private func value(of track: Track) -> SortValue? {
        switch key {
        case .duration: return track.trackTimeMillis.map { .number(Double($0)) }
        case .price:
            guard let price = track.trackPrice ?? track.collectionPrice, price >= 0 else { return nil }
            return .number(price)
        case .genre: return track.primaryGenreName.map { .text($0.lowercased()) }
        case .released: return track.releaseDate.map { .text($0) }   // ISO 8601 sorts as text
        case .title: return (track.trackName ?? track.collectionName).map { .text($0.lowercased()) }
        case .artist: return track.artistName.map { .text($0.lowercased()) }
        }
    }
}

private enum SortValue: Comparable {
    case number(Double)
    case text(String)
}
