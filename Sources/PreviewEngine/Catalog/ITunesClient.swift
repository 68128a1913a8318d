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
    /// The root of Apple's marketing-tools RSS (the v2 chart feed), e.g. `https://rss.applemarketingtools.com`.
    public let chartBase: URL
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
    /// The chart form asked first: the one that answered last (`ChartFeed.Format`; 0 legacy, 1 v2).
    private let chartFormatFirst = Atomic<Int>(0)
    /// The tracks every answer carried, by trackId (`TrackMemory`).
    public let memory: TrackMemory

    /// A client of the API at `base` (and of the v2 chart feed at `chartBase`, `base` when nil) for
    /// storefront `country`, at most `callsPerMinute` calls, answers kept `cacheSeconds`.
    public init(base: URL, chartBase: URL? = nil, country: String = "US", timeout: Double = 10, callsPerMinute: Int = 20,
                cacheSeconds: Double = 300, http: HTTPClient = HTTPClient(), warm: WarmPaths? = nil,
                memory: TrackMemory = TrackMemory()) {
        self.warm = warm
        self.memory = memory
        self.base = base
        self.chartBase = chartBase ?? base
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
            for track in page.results where track.isTrackLike {
                if let id = track.trackId, asked.contains(id) { found[id] = track }
            }
        }
        return found
    }

    /// The top-songs chart: the feed (Apple's legacy form or its v2 form, the one that answered
    /// last asked first, the other when it fails or answers in a form previewd cannot read), then
    /// its ids from the track memory and one lookup of the others (the same `lookup` a listener's
    /// takes, which feeds the memory), so each row is the song's own record (its length, album,
    /// genre, price, numbers, artwork), in the chart's order. Three calls at most, each cached like
    /// a search. `lookingUp` false: no lookup, the entries the memory does not know stand as the
    /// feed gives them (radio's one call for a chart).
    public func topSongs(_ query: ChartQuery, lookingUp: Bool = true) async throws(CatalogError) -> CatalogPage {
        var sources = [base.appendingPathComponent(query.path(country: country))]
        if let current = query.currentPath(country: country) {
            sources.append(chartBase.appendingPathComponent(current))
            if chartFormatFirst.load(ordering: .relaxed) == 1 { sources.reverse() }
        }
        var requests: [String] = []
        var feed: ChartFeed?
        var firstError: CatalogError?
        for address in sources {
            requests.append(address.absoluteString)
            do {
                feed = try await fetch(address) as ChartFeed
                break
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let feed else { throw Self.chartError(firstError!, forms: sources.count) }
        if sources.count > 1 { chartFormatFirst.store(feed.format == .current ? 1 : 0, ordering: .relaxed) }
        let entries = Array(feed.tracks.prefix(query.limit))
        var page = CatalogPage(results: entries, skipped: feed.skipped, requests: requests)
        let ids = Array(entries.compactMap(ChartFeed.id(of:)).prefix(200))
        // The songs previewd has answered before come from the track memory; the rest from one lookup.
        var byID = memory.tracks(ids)
        let unknown = ids.filter { byID[$0] == nil }
        if lookingUp, !unknown.isEmpty {
            do {
                let found = try await lookup(LookupQuery(ids: unknown, entity: nil, country: query.country?.uppercased()))
                for record in found.results { if let id = ChartFeed.id(of: record), byID[id] == nil { byID[id] = record } }
                page.skipped += found.skipped
                page.requests += found.requests
            } catch {
                // The legacy feed's own preview links still play without the lookup; v2 has none.
                guard entries.contains(where: { $0.previewUrl != nil }) else { throw error }
                page.lookupError = error.message
            }
        }
        page.results = entries.map { entry in ChartFeed.id(of: entry).flatMap { byID[$0] } ?? entry }
        // An entry the lookup answered as unknown is kept too (an add by its id finds it); looked-up
        // ones already are. After a failed lookup nothing is: a later chart or add looks them up again.
        if lookingUp, page.lookupError == nil {
            let unanswered = Set(unknown).subtracting(byID.keys)
            memory.remember(page.results.filter { $0.trackId.map(unanswered.contains) ?? false })
        }
        return page
    }

    /// What a chart's failure says: with two forms tried, that neither could be read.
    private static func chartError(_ error: CatalogError, forms: Int) -> CatalogError {
        guard forms > 1, case .invalidData(let why) = error else { return error }
        return .invalidData("the chart feed in neither of Apple's forms (\(why))")
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
        } catch .cancelled {
            throw .stopping   // the client is shut down (previewd stopping); no one else cancels a call
        } catch {
            throw .offline(base: PreviewURLPolicy.origin(of: base.absoluteString) ?? base.absoluteString, error.transientCause ?? error.message)
        }
        switch response.head.status {
        case 200..<300: break
        case 403, 429: throw .rateLimited(byAPI: true, retryAfterSeconds: response.head.retryAfterSeconds)
        case 502, 503, 504: throw .unavailable(status: response.head.status, retryAfterSeconds: response.head.retryAfterSeconds)
        case 400..<500:
            if let reason = Self.applesReason(response.body, asked: url) { throw .refused(status: response.head.status, reason: reason) }
            throw .httpStatus(response.head.status)
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

    /// Apple's reason for refusing a request (`{"errorMessage": "Invalid value(s) for key(s):
    /// [country]", "queryParameters": {…}}`), as Apple wrote it, with the values previewd sent for
    /// the keys it names; nil when the body says none.
    static func applesReason(_ body: [UInt8], asked url: URL) -> String? {
        guard body.count <= 64 << 10, let answer = try? JSONDecoder().decode(JSONValue.self, from: Data(body)),
              let said = answer["errorMessage"]?.stringValue?.trimmingWhitespace(), !said.isEmpty else { return nil }
        let message = TerminalText.sanitized(String(said.prefix(300)))
        // The keys come in brackets: "[country]", "[entity, media]".
        guard let open = said.firstIndex(of: "["), let close = said[open...].firstIndex(of: "]") else { return message }
        let keys = said[said.index(after: open)..<close].split(separator: ",").map { $0.trimmingWhitespace() }
        let sent = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let values = keys.prefix(8).compactMap { key -> String? in
            let name = applesKeys[key] ?? key   // Apple names some parameters by names of its own
            return sent.first { $0.name == name }.map { "\(name)=\(TerminalText.sanitized(String(($0.value ?? "").prefix(40))))" }
        }
        return values.isEmpty ? message : "\(message) (previewd sent \(values.joined(separator: ", ")))"
    }

    /// The query parameters Apple's error messages name otherwise (`[resultEntity]` for `entity`).
    private static let applesKeys = ["resultEntity": "entity", "mediaType": "media", "attributeType": "attribute", "itunesId": "id"]

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
    /// For a chart whose lookup failed: why (its rows are then the feed's own entries).
    public var lookupError: String?
}
