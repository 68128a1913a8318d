/// The body of an iTunes Search API answer (`/search` and `/lookup`): `{"resultCount": N, "results": [...]}`.
public struct SearchResponse: Codable, Equatable, Sendable {
    /// The count Apple reports; it equals `results.count` in well-formed answers.
    public var resultCount: Int
    /// The results, tracks and otherwise, in Apple's order.
    public var results: [Track]

    /// An answer with the given results.
    public init(results: [Track]) {
        self.resultCount = results.count
        self.results = results
    }
}
