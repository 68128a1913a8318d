/// The answer to `library`: what previewd has met, as the listener met it. `tracks` is every track
/// it remembers (its track memory, newest first), with the shortlist's and the recently heard
/// tracks' records even when the memory has let them go; `ways` says how the listener came to them,
/// each way naming its tracks by id, in its own order. A track may be in several ways, or in none
/// (an album looked up, a saved list read, an add by id). Bounded like the memory: 20,000 tracks
/// and 8 MiB of it, the shortlist (10,000 at most), the last 2,000 heard.
public struct LibraryReport: Codable, Equatable, Sendable {
    /// One way to tracks.
    public struct Way: Codable, Equatable, Sendable {
        /// What kind of way.
        public enum Kind: String, Codable, Sendable {
            /// The shortlist (`mark`).
            case marked
            /// Previews heard for five seconds or more, newest first (the history).
            case heard
            /// The latest top-songs chart, in its order.
            case chart
            /// A recent search, in the order it answered.
            case search
        }

        /// What kind of way it is.
        public var kind: Kind
        /// What the listener gave: a search's words, the chart's country; empty for the others.
        public var words: String
        /// Its tracks, by id, in order.
        public var trackIds: [Int]

        /// A way of `kind` to `trackIds`, named by `words`.
        public init(_ kind: Kind, words: String = "", trackIds: [Int]) {
            self.kind = kind
            self.words = words
            self.trackIds = trackIds
        }
    }

    /// The ways, in this order: the shortlist, the history, the chart, the searches newest first.
    public var ways: [Way]
    /// Every track met, once each, newest first.
    public var tracks: [Track]

    /// A report of `tracks` and the `ways` to them.
    public init(ways: [Way], tracks: [Track]) {
        self.ways = ways
        self.tracks = tracks
    }
}
