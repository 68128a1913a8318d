/// The top-songs chart, which Apple publishes in two forms (`ChartFeed`): the legacy feed
/// `{api-base}/{cc}/rss/topsongs/limit={N}[/genre={G}]/json` and the marketing-tools RSS v2
/// `{chart-base}/api/v2/{cc}/music/most-played/{10|25|50|100}/songs.json` (no genres).
public struct ChartQuery: Codable, Equatable, Hashable, Sendable {
    /// Entries, 1–200.
    public var limit: Int
    /// Storefront; the daemon's when nil.
    public var country: String?
    /// An iTunes genre id (e.g. 21 Rock), or the whole chart.
    public var genre: Int?

    /// A chart query.
    public init(limit: Int = 50, country: String? = nil, genre: Int? = nil) {
        self.limit = limit
        self.country = country
        self.genre = genre
    }

    /// Checks Apple's bounds.
    public func validate() throws(ControlError) {
        guard (1...200).contains(limit) else { throw ControlError(.badArgument, "limit must be between 1 and 200 (got \(limit))") }
        if let genre, genre <= 0 { throw ControlError(.badArgument, "genre must be a positive iTunes genre id") }
        if let country, !CountryCode.isValid(country) {
            throw ControlError(.badArgument, CountryCode.problem(country))
        }
    }

    /// The legacy feed's path under the API root for storefront `country` (lower-cased, as Apple spells it).
    public func path(country fallback: String) -> String {
        var path = "\((country ?? fallback).lowercased())/rss/topsongs/limit=\(limit)"
        if let genre { path += "/genre=\(genre)" }
        return path + "/json"
    }

    /// The v2 feed's sizes: it serves no other.
    public static let currentSizes = [10, 25, 50, 100]

    /// The v2 feed's path under its root, at the least size that holds `limit` entries (100 at
    /// most: a longer chart is the legacy feed's alone); nil with a genre, which v2 cannot filter by.
    public func currentPath(country fallback: String) -> String? {
        guard genre == nil else { return nil }
        let size = Self.currentSizes.first { $0 >= limit } ?? Self.currentSizes.last!
        return "api/v2/\((country ?? fallback).lowercased())/music/most-played/\(size)/songs.json"
    }
}
