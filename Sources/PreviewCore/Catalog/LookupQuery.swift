/// A lookup by iTunes id (`/lookup?id=…`): an album id gives its songs, an artist id the artist's
/// songs, a track id that track.
public struct LookupQuery: Codable, Equatable, Hashable, Sendable {
    /// Up to 200 ids.
    public var ids: [Int]
    /// Apple's `entity`; previewd asks for `song` unless told otherwise.
    public var entity: String?
    /// Apple's `limit` for the related items (1–200).
    public var limit: Int?
    /// Apple's `sort` (`recent`).
    public var sort: String?
    /// Storefront; the daemon's when nil.
    public var country: String?

    /// A lookup of `ids`.
    public init(ids: [Int], entity: String? = "song", limit: Int? = nil, sort: String? = nil, country: String? = nil) {
        self.ids = ids
        self.entity = entity
        self.limit = limit
        self.sort = sort
        self.country = country
    }

    /// Parses previewctl's `ID[,ID...]`.
    public static func ids(_ text: String) -> [Int]? {
        let ids = text.split(separator: ",").map { Int($0.trimmingWhitespace()) }
        guard !ids.isEmpty, ids.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
        return ids.compactMap { $0 }
    }

    /// Checks the ids and Apple's bounds.
    public func validate() throws(ControlError) {
        guard (1...200).contains(ids.count), ids.allSatisfy({ $0 > 0 && Double($0) <= JSONValue.maxExactInteger }) else {
            throw ControlError(.badArgument, "lookup needs 1–200 positive ids (at most 2^53 − 1)")
        }
        if let entity, !CatalogQuery.entities.contains(entity) {
            throw ControlError(.badArgument, "unknown entity \"\(entity.prefix(40))\"")
        }
        if let limit, !CatalogQuery.limits.range.contains(limit) {
            throw ControlError(.badArgument, "limit must be between 1 and 200 (got \(limit))")
        }
        if let sort, sort != "recent" { throw ControlError(.badArgument, "sort must be \"recent\"") }
        if let country, !CountryCode.isValid(country) {
            throw ControlError(.badArgument, CountryCode.problem(country))
        }
    }

    /// The request Apple documents.
    public var plan: SearchPlan {
        var items = [("id", ids.map(String.init).joined(separator: ","))]
        if let entity { items.append(("entity", entity)) }
        if let limit { items.append(("limit", String(limit))) }
        if let sort { items.append(("sort", sort)) }
        return SearchPlan(path: "lookup", items: items)
    }
}
