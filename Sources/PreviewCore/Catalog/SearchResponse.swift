/// The body of an iTunes Search API answer (`/search` and `/lookup`): `{"resultCount": N, "results": [...]}`.
///
/// Decoding is per item: an entry that is not an object or has a field of the wrong type is skipped
/// and counted in `skipped`, never the page.
public struct SearchResponse: Codable, Equatable, Sendable {
    /// The count Apple reports; it equals `results.count` in well-formed answers.
    public var resultCount: Int
    /// The results, tracks and otherwise, in Apple's order.
    public var results: [Track]
    /// Entries dropped because they could not be decoded.
    public var skipped: Int = 0

    /// An answer with the given results.
    public init(results: [Track]) {
        self.resultCount = results.count
        self.results = results
    }

    private enum CodingKeys: String, CodingKey { case resultCount, results }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var list = try c.nestedUnkeyedContainer(forKey: .results)
        var results: [Track] = []
        while !list.isAtEnd {
            if let entry = try? list.decode(LossyEntry.self), let track = entry.track {
                results.append(track)
            } else {
                skipped += 1
            }
        }
        self.results = results
        resultCount = (try? c.decodeIfPresent(Int.self, forKey: .resultCount)) ?? results.count
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(resultCount, forKey: .resultCount)
        try c.encode(results, forKey: .results)
    }
}

/// One entry of `results`: always consumed from the list, decoded when it is a well-formed object.
private struct LossyEntry: Decodable {
    var track: Track?
    init(from decoder: any Decoder) throws {
        track = try? Track(from: decoder)
        track?.adoptCollectionIdentity()
    }
}
