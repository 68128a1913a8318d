import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PreviewCore

/// The iTunes Search API client: builds requests, fetches and decodes them. All of previewd's catalog
/// HTTP goes through here, so rate limits and caching have one place to live.
public final class ITunesClient: Sendable {
    /// The API root, e.g. `https://itunes.apple.com` (search is `{base}/search`).
    public let base: URL
    /// The storefront, a two-letter country code.
    public let country: String
    /// Answers larger than this are refused.
    public let maxResponseBytes = 10 << 20
    private let session: URLSession

    /// A client of the API at `base` for storefront `country`.
    public init(base: URL, country: String = "US", timeout: TimeInterval = 10) {
        self.base = base
        self.country = country
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// The URL of a song search for `term` (`/search?term=…&media=music&entity=song&limit=…&country=…`).
    public func searchURL(term: String, limit: Int) -> URL {
        var components = URLComponents(url: base.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "term", value: term),
            URLQueryItem(name: "media", value: "music"),
            URLQueryItem(name: "entity", value: "song"),
            URLQueryItem(name: "limit", value: String(limit)),
            URLQueryItem(name: "country", value: country),
        ]
        return components.url!
    }

    /// Songs matching `term`, in Apple's order.
    public func searchSongs(term: String, limit: Int) async throws(CatalogError) -> [Track] {
        try await get(searchURL(term: term, limit: limit)).results
    }

    /// Fetches and decodes one API answer.
    func get(_ url: URL) async throws(CatalogError) -> SearchResponse {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(from: url)
        } catch {
            throw .unreachable(base: base.absoluteString, error.localizedDescription)
        }
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw .httpStatus(http.statusCode)
        }
        guard data.count <= maxResponseBytes else { throw .tooLarge(limit: maxResponseBytes) }
        do {
            return try JSONDecoder().decode(SearchResponse.self, from: data)
        } catch {
            throw .invalidResponse("\(error)".prefix(200).description)
        }
    }
}
