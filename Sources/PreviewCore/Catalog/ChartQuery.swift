/// The top-songs chart: `{api-base}/{cc}/rss/topsongs/limit={N}[/genre={G}]/json`.
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
            throw ControlError(.badArgument, "country must be a two-letter code")
        }
    }

    /// The feed's path under the API root for storefront `country` (lower-cased, as Apple spells it).
    public func path(country fallback: String) -> String {
        var path = "\((country ?? fallback).lowercased())/rss/topsongs/limit=\(limit)"
        if let genre { path += "/genre=\(genre)" }
        return path + "/json"
    }
}
