/// The catalog answers the listener's library keeps as ways to tracks (`LibraryReport.Way`): the
/// latest top-songs chart and the recent searches, newest first, each naming the tracks it
/// answered by id. Bounded: `maxSearches` searches of at most `maxIds` ids each (a search paged on
/// with `more` grows until then). A value; the player keeps one.
public struct RecentAnswers: Equatable, Sendable {
    /// One answer: what was asked, and the tracks it named.
    public struct Answer: Equatable, Sendable {
        /// The search's words, or the chart's country.
        public var words: String
        /// The tracks it answered, by id, in its order.
        public var trackIds: [Int]
    }

    /// Searches kept.
    public static let maxSearches = 16
    /// Ids kept of one answer.
    public static let maxIds = 1_000

    /// The recent searches, newest first.
    public private(set) var searches: [Answer] = []
    /// The latest chart (its country as the words).
    public private(set) var chart: Answer?

    /// Nothing answered yet.
    public init() {}

    /// A search of `words` answered `results` (`continuing`: its next page, from `more`). The
    /// same words asked again replace the older answer.
    public mutating func searched(_ words: String, _ results: [Track], continuing: Bool = false) {
        let ids = Self.ids(results)
        guard !words.isEmpty, !ids.isEmpty else { return }
        var answer = Answer(words: words, trackIds: ids)
        if let old = searches.firstIndex(where: { $0.words == words }) {
            if continuing { answer.trackIds = Self.merged(searches[old].trackIds, ids) }
            searches.remove(at: old)
        }
        searches.insert(answer, at: 0)
        if searches.count > Self.maxSearches { searches.removeLast(searches.count - Self.maxSearches) }
    }

    /// The chart of `country` answered `results`.
    public mutating func charted(_ country: String, _ results: [Track]) {
        let ids = Self.ids(results)
        guard !ids.isEmpty else { return }
        chart = Answer(words: country.uppercased(), trackIds: ids)
    }

    /// The chart's and the searches' ways, in that order.
    public var ways: [LibraryReport.Way] {
        (chart.map { [LibraryReport.Way(.chart, words: $0.words, trackIds: $0.trackIds)] } ?? [])
            + searches.map { LibraryReport.Way(.search, words: $0.words, trackIds: $0.trackIds) }
    }

    /// The ids of the tracks among `results`, once each, in order.
    private static func ids(_ results: [Track]) -> [Int] {
        merged([], results.filter(\.isTrackLike).compactMap(\.trackId))
    }

    private static func merged(_ old: [Int], _ new: [Int]) -> [Int] {
        var seen = Set(old)
        var out = old
        for id in new where out.count < maxIds && seen.insert(id).inserted { out.append(id) }
        return out
    }
}

extension CatalogQuery {
    /// The words the listener gave (the free term, then artist, album and song), as one line.
    public var words: String {
        [term, artist, album, song].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
