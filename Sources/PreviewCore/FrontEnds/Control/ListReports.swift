/// One saved list's name and size.
public struct ListSummary: Codable, Equatable, Sendable {
    public var name: String
    public var count: Int
    /// When it was last written, seconds since 1970 (MPD's `Last-Modified`).
    public var modified: Int?

    public init(name: String, count: Int, modified: Int? = nil) {
        self.name = name
        self.count = count
        self.modified = modified
    }
}

/// The answer to `lists` (and to `forget` and `rename`): every saved list, by name.
public struct ListsReport: Codable, Equatable, Sendable {
    public var lists: [ListSummary]

    public init(lists: [ListSummary]) { self.lists = lists }
}

/// The answer to `lists` with a name (its tracks), and to `save`, `listadd`, `listremove` (its size).
public struct ListReport: Codable, Equatable, Sendable {
    public var name: String
    public var count: Int
    /// The tracks with the API's field names, for `lists NAME`; absent otherwise.
    public var tracks: [Track]?

    public init(name: String, count: Int, tracks: [Track]? = nil) {
        self.name = name
        self.count = count
        self.tracks = tracks
    }
}

/// The answer to `history`: the newest entries, oldest first.
public struct HistoryReport: Codable, Equatable, Sendable {
    public var entries: [HistoryEntry]

    public init(entries: [HistoryEntry]) { self.entries = entries }
}
