import PreviewCore

/// previewd's MPD database: a snapshot of what it has met (the engine's `library`), filed as MPD
/// files songs, each song in exactly one folder (Cantata builds its library by walking every
/// folder, so a song in two folders would be two songs to it). The folders, in this order, take
/// the songs not taken already: `Marked` (the shortlist), `Heard` (the history, newest first),
/// `Top songs (CC)` (the latest chart), `Searches/WORDS` (the recent searches, newest first) and
/// `Other` (everything else previewd remembers: albums looked up, saved lists read, adds by id).
/// A song's URI stays `itunes:track:ID` wherever it is filed, as in the queue. A value; renewed
/// whole (`MPDLibrary`).
public struct MPDDatabase: Sendable {
    /// One folder's contents.
    public struct Directory: Sendable, Equatable {
        /// Its folders, by path.
        public var folders: [String] = []
        /// Its songs, by trackId.
        public var songs: [Int] = []
    }

    /// Every song, once, in the order of the folders.
    public let songs: [Track]
    /// The folders by path (`""` the root).
    public let directories: [String: Directory]
    /// When it was made, seconds since 1970 (MPD's `db_update`, each folder's `Last-Modified`).
    public let updated: Int
    /// What it was made of, without the records: a renewal that finds the same is no change.
    let fingerprint: Fingerprint
    private let index: [Int: Int]
    /// The folder each song is filed in, by trackId.
    private let folders: [Int: String]

    /// Folder names: what a listener calls each way to songs.
    static let markedName = "Marked", heardName = "Heard", searchesName = "Searches", otherName = "Other"

    /// The database of `report`, made at `updated`.
    public init(_ report: LibraryReport, updated: Int) {
        fingerprint = Fingerprint(report)
        self.updated = updated
        var met: [Int: Track] = [:]
        var order: [Int] = []
        for track in report.tracks {
            guard let id = track.trackId, met[id] == nil else { continue }
            met[id] = track
            order.append(id)
        }
        var directories: [String: Directory] = ["": Directory()]
        var filed: [Int] = []
        var isFiled = Set<Int>()
        func add(_ path: String, _ directory: Directory) {
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            if directories[parent] == nil { add(parent, Directory()) }
            directories[parent]!.folders.append(path)
            directories[path] = directory
        }
        var folders: [Int: String] = [:]
        func file(_ ids: [Int], in path: String) {   // a folder only for songs not filed yet
            let mine = ids.filter { met[$0] != nil && isFiled.insert($0).inserted }
            guard !mine.isEmpty else { return }
            add(path, Directory(songs: mine))
            filed += mine
            for id in mine { folders[id] = path }
        }
        var searchNames = Set<String>()
        for way in report.ways {
            switch way.kind {
            case .marked: file(way.trackIds, in: Self.markedName)
            case .heard: file(way.trackIds, in: Self.heardName)
            case .chart: file(way.trackIds, in: "Top songs (\(way.words))")
            case .search: file(way.trackIds, in: Self.searchesName + "/" + Self.folderName(way.words, taken: &searchNames))
            }
        }
        file(order, in: Self.otherName)
        // The songs in the order of the folders, as MPD's database lists them: a `search` of what
        // a search answered gives them in the answer's order.
        songs = filed.compactMap { met[$0] }
        index = Dictionary(uniqueKeysWithValues: filed.enumerated().map { ($1, $0) })
        self.directories = directories
        self.folders = folders
    }

    /// The ways and the tracks' ids of a report: what the folders are made of.
    struct Fingerprint: Equatable, Sendable {
        var ways: [LibraryReport.Way]
        var trackIds: [Int]

        init(_ report: LibraryReport) {
            ways = report.ways
            trackIds = report.tracks.compactMap(\.trackId)
        }
    }

    /// Nothing met yet.
    public static let empty = MPDDatabase(LibraryReport(ways: [], tracks: []), updated: 0)

    /// The song `trackId`, if the database holds it.
    public func song(_ trackId: Int) -> Track? { index[trackId].map { songs[$0] } }

    /// The folder `track` is filed in; nil when the database does not hold it.
    public func folder(of track: Track) -> String? { track.trackId.flatMap { folders[$0] } }

    /// The folder at `path` (`""` and `/` are the root). A trailing `/` names none, as in MPD's
    /// database (its lookup takes what follows the slash for a song's name).
    public func directory(_ path: String) -> Directory? {
        directories[Self.normalized(path)]
    }

    /// The songs of the folder at `path` and of every folder under it, in order.
    public func songs(under path: String) -> [Track] {
        guard let directory = directory(path) else { return [] }
        return directory.songs.compactMap(song) + directory.folders.flatMap { songs(under: $0) }
    }

    /// `path` as a key of the folders: `/` is the root (an old clients' habit MPD keeps).
    static func normalized(_ path: String) -> String {
        path == "/" ? "" : path
    }

    /// Distinct non-empty values of `tag` among the songs (MPD's `stats` counts artists and albums so).
    public func count(of tag: MPDTag) -> Int {
        Set(songs.compactMap { tag.value(of: $0) }.filter { !$0.isEmpty }).count
    }

    /// What the songs play for, in seconds (their previews: `PreviewLength`).
    public var playtimeSeconds: Int {
        songs.reduce(0) { $0 + PreviewLength.estimateMs($1) } / 1000
    }

    /// The most characters of a folder's name; a longer search's words are cut, with an ellipsis.
    static let maxNameLength = 64

    /// `words` as one folder's name, safe in a path and bounded: a `/` (which would nest it) becomes
    /// `∕`, line breaks, tabs and other controls become spaces, blanks run together, leading dots
    /// go (no `.` or `..`), at most 64 characters; a name already `taken` gets ` (2)`, ` (3)`….
    static func folderName(_ words: String, taken: inout Set<String>) -> String {
        var text = String(words.unicodeScalars.map { scalar -> Character in
            if scalar == "/" { return "∕" }
            return scalar.properties.generalCategory == .control || scalar.properties.isWhitespace ? " " : Character(scalar)
        })
        while text.hasPrefix(".") { text.removeFirst() }
        text = text.split(separator: " ").joined(separator: " ")
        if text.isEmpty { text = "(no words)" }
        if text.count > maxNameLength { text = String(text.prefix(maxNameLength - 1)) + "…" }
        var name = text
        var n = 1
        while !taken.insert(name).inserted {
            n += 1
            name = "\(text) (\(n))"
        }
        return name
    }
}
