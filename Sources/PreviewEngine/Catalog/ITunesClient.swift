#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore
import Synchronization

/// The iTunes Search API client: search, lookup and the top-songs chart. All of previewd's catalog
/// HTTP goes through `fetch`, which holds the rate governor and the response cache. Every track an
/// answer carries is kept in the track memory, and `tracks(_:)` reads it before it calls.
public final class ITunesClient: Sendable {
    /// The API root, e.g. `https://itunes.apple.com` (search is `{base}/search`).
    public let base: URL
    /// The default storefront, a two-letter country code.
    public let country: String
    /// Answers larger than this are refused.
    public let maxResponseBytes = 10 << 20
    /// Seconds a call may take.
    public let timeout: Double
    private let http: HTTPClient
    private let governor: RateGovernor
    private let cache: ResponseCache
    private let calls = Atomic<Int>(0)
    /// Told of each call and its results, to open the preview host's connection meanwhile.
    private let warm: WarmPaths?
    /// The tracks every answer carried, by trackId (`TrackMemory`).
    public let memory: TrackMemory

    /// A client of the API at `base` for storefront `country`, at most `callsPerMinute` calls,
    /// answers kept `cacheSeconds`.
    public init(base: URL, country: String = "US", timeout: Double = 10, callsPerMinute: Int = 20,
                cacheSeconds: Double = 300, http: HTTPClient = HTTPClient(), warm: WarmPaths? = nil,
                memory: TrackMemory = TrackMemory()) {
        self.warm = warm
        self.memory = memory
        self.base = base
        self.country = country
        self.timeout = timeout
        self.http = http
        governor = RateGovernor(perMinute: callsPerMinute)
        cache = ResponseCache(ttl: cacheSeconds)
    }

    /// Cancels calls in flight and ends the HTTP client's thread; for shutdown.
    public func shutdown() {
        http.shutdown()
    }

    /// How full the response cache is.
    public var cacheReport: StoreReport { cache.report }

    /// Calls made to the API so far (cache hits excluded).
    public var callCount: Int { calls.load(ordering: .relaxed) }

    /// The URL of `plan` for storefront `country`.
    public func url(_ plan: SearchPlan, country: String? = nil) -> URL {
        var components = URLComponents(url: base.appendingPathComponent(plan.path), resolvingAgainstBaseURL: false)!
        components.queryItems = plan.items.map { URLQueryItem(name: $0.0, value: $0.1) }
            + [URLQueryItem(name: "country", value: country ?? self.country)]
        return components.url!
    }

    /// The results of `query`; for an album query, the songs of the first album found.
    public func search(_ query: CatalogQuery) async throws(CatalogError) -> CatalogPage {
        let plan = query.plan
        let first = url(plan, country: query.country)
        let answer: SearchResponse = try await fetch(first)
        var page = CatalogPage(results: answer.results, skipped: answer.skipped, requests: [first.absoluteString])
        memory.remember(answer.results)
        guard plan.expandsAlbums else { return page }
        guard let album = answer.results.first(where: { $0.collectionId != nil }), let id = album.collectionId else {
            page.results = []
            return page
        }
        let songs = try await lookup(LookupQuery(ids: [id], entity: "song", country: query.country))
        page.album = album.collectionName
        page.results = songs.results.filter { $0.wrapperType == "track" || $0.wrapperType == nil }
        page.skipped += songs.skipped
        page.requests += songs.requests
        return page
    }

    /// The items of a lookup, with the looked-up collections and artists themselves first (as Apple sends them).
    public func lookup(_ query: LookupQuery) async throws(CatalogError) -> CatalogPage {
        let address = url(query.plan, country: query.country)
        let answer: SearchResponse = try await fetch(address)
        memory.remember(answer.results)
        return CatalogPage(results: answer.results, skipped: answer.skipped, requests: [address.absoluteString])
    }

    /// The tracks of `ids` by id: those the memory holds cost nothing, the rest are looked up
    /// together (one call per 200 ids); an id the catalog does not know as a track is absent.
    public func tracks(_ ids: [Int], country: String? = nil) async throws(CatalogError) -> [Int: Track] {
        var found = memory.tracks(ids)
        var unknown: [Int] = []
        var asked = Set<Int>()
        for id in ids where found[id] == nil && asked.insert(id).inserted { unknown.append(id) }
        for start in stride(from: 0, to: unknown.count, by: 200) {
            let chunk = Array(unknown[start..<min(start + 200, unknown.count)])
            let page = try await lookup(LookupQuery(ids: chunk, entity: nil, country: country))
            for track in page.results where track.wrapperType == "track" || track.wrapperType == nil {
                if let id = track.trackId, asked.contains(id) { found[id] = track }
            }
        }
        return found
    }

    /// The top-songs chart; entries without a preview link are completed by one batched lookup.
    public func topSongs(_ query: ChartQuery) async throws(CatalogError) -> CatalogPage {
        let address = base.appendingPathComponent(query.path(country: country))
        let feed: ChartFeed = try await fetch(address)
        var page = CatalogPage(results: feed.tracks, skipped: feed.skipped, requests: [address.absoluteString])
        let missing = feed.tracks.filter { $0.previewUrl == nil }.compactMap(\.trackId)
        guard !missing.isEmpty else {
            memory.remember(page.results)
            return page
        }
        let found = try await lookup(LookupQuery(ids: Array(missing.prefix(200)), entity: nil, country: query.country?.uppercased()))
        let byID = Dictionary(found.results.compactMap { t in t.trackId.map { ($0, t) } }, uniquingKeysWith: { a, _ in a })
        page.results = page.results.map { entry in
            guard entry.previewUrl == nil, let id = entry.trackId, let full = byID[id] else { return entry }
            return full
        }
        page.requests += found.requests
        memory.remember(page.results)
        return page
    }

    /// Fetches `url` (or takes it from the cache) and decodes it as `T`.
    func fetch<T: Decodable>(_ url: URL) async throws(CatalogError) -> T {
        let key = url.absoluteString
        if let data = cache.get(key), let value = try? JSONDecoder().decode(T.self, from: data) { return value }
        if let wait = governor.take() {
            guard wait <= 2 else { throw .rateLimited(byAPI: false, retryAfterSeconds: Int(wait.rounded(.up))) }
            await http.sleep(seconds: wait)
            if let again = governor.take() { throw .rateLimited(byAPI: false, retryAfterSeconds: Int(again.rounded(.up))) }
        }
        calls.add(1, ordering: .relaxed)
        var request = HTTPRequest(url: key)
        request.totalTimeout = timeout
        request.stallTimeout = timeout
        request.acceptCompression = true
        request.purpose = key.contains("/search?") ? .search : .catalog
        // Catalog redirects are held to the preview rule: http(s), and local addresses only at the API's own origin.
        let origin = PreviewURLPolicy.origin(of: base.absoluteString)
        request.localOrigin = origin
        request.allowRedirect = { PreviewURLPolicy.isFetchable($0) && PreviewURLPolicy.localAddressReason($0, apiOrigin: origin) == nil }
        let response: HTTPResponse
        warm?.catalogCallStarting()
        do {
            response = try await http.response(to: request, limit: maxResponseBytes)
        } catch .timedOut {
            throw .timeout(seconds: Int(timeout.rounded()))
        } catch {
            throw .offline(base: base.absoluteString, error.message)
        }
        switch response.head.status {
        case 200..<300: break
        case 403, 429: throw .rateLimited(byAPI: true, retryAfterSeconds: response.head.retryAfterSeconds)
        default: throw .httpStatus(response.head.status)
        }
        if response.head.mediaType == "text/html" { throw .invalidData("an HTML page instead of JSON") }
        guard !response.exceededLimit else { throw .invalidData("answer larger than \(maxResponseBytes >> 20) MiB") }
        let data = Data(response.body)
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw .invalidData("not JSON (\(data.isEmpty ? "empty body" : "\(data.count) bytes"))")
        } catch {
            throw .invalidData("not the shape the API sends (\(Self.describe(error)))")
        }
        cache.put(key, data)
        if let answer = value as? SearchResponse { warm?.learn(from: answer.results) }
        return value
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return String("\(error)".prefix(120))
        }
    }
}

/// What one catalog command found: the results in Apple's order and what was dropped.
public struct CatalogPage: Sendable {
    /// The results (tracks, and collections or artists where Apple sends them).
    public var results: [Track]
    /// Malformed entries skipped.
    public var skipped: Int
    /// The URLs called (or answered from the cache), in order.
    public var requests: [String]
    /// For an album query: the album whose songs these are.
    public var album: String?
}
