import Foundation

/// One of Apple's real answers, as a public project saved it, served for the requests it was an
/// answer to: those to `path` whose query holds every item of `query` (values compared without
/// case). The body is the file's, `{{BASE}}` replaced by the stand-in's address (the previews and
/// artwork rewritten to its own, so they play); no file is an empty body (Apple's 403).
public struct StandInRecording: Decodable, Sendable {
    /// The request path, e.g. `/search` or `/us/rss/topsongs/limit=3/json`.
    public var path: String
    /// Query items the request must carry.
    public var query: [String: String]
    /// The body's file, relative to the folder of the index.
    public var file: String?
    /// The answer's status.
    public var status: Int
    /// Extra header lines (`Retry-After: 120`).
    public var headers: [String]

    /// A recording of `file` (or an empty body) with `status`, served for `path` and `query`.
    public init(path: String, query: [String: String] = [:], file: String? = nil, status: Int = 200, headers: [String] = []) {
        self.path = path
        self.query = query
        self.file = file
        self.status = status
        self.headers = headers
    }

    private enum CodingKeys: String, CodingKey { case path, query, file, status, headers }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        query = try c.decodeIfPresent([String: String].self, forKey: .query) ?? [:]
        file = try c.decodeIfPresent(String.self, forKey: .file)
        status = try c.decodeIfPresent(Int.self, forKey: .status) ?? 200
        headers = try c.decodeIfPresent([String].self, forKey: .headers) ?? []
    }

    /// The recordings an index file (`recordings.json`: a list of them) names.
    public static func index(_ url: URL) throws -> [StandInRecording] {
        try JSONDecoder().decode([StandInRecording].self, from: Data(contentsOf: url))
    }

    /// True when this recording answers a request for `path` with `items`.
    func answers(path asked: String, items: [String: String]) -> Bool {
        asked == path && query.allSatisfy { key, value in items[key]?.lowercased() == value.lowercased() }
    }
}
