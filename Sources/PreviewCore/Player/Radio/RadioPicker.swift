/// One radio batch, decided without I/O or a clock: which previews to append when the queue is
/// about to end, and which catalog calls (at most `maxCalls`) it needs to find them. The engine
/// asks `nextCall()`, makes that call, hands the answer to `answered` (or `failed`), and asks
/// again until it says nil; then `result` says what to append, each pick with its reason.
///
/// The leads come in `RadioLead.Kind`'s order: the artists of marked tracks, of played ones, their
/// albums, their genres' charts; a lead skipped early (`skips`) steps behind the next kind's leads per skip and
/// is dropped after `dropAfterSkips`. The track memory answers first: a lead whose songs it holds
/// costs no call, and a lead called in a recent batch (`recentlyCalled`) is not called again (its
/// answer is in the memory). A pick is never in the queue nor `excluded` (the recent history), and
/// no three picks in a row, counting the queue's last two tracks, are by one artist.
public struct RadioPicker: Sendable {
    /// The bounds of a batch.
    public struct Limits: Equatable, Sendable {
        /// Tracks appended per batch.
        public var batch = 4
        /// Catalog calls per batch.
        public var maxCalls = 2
        /// Quick skips after which a lead is no longer followed.
        public var dropAfterSkips = 3
        public init() {}
    }

    /// What a batch starts from.
    public struct Input: Sendable {
        /// Marked tracks (the shortlist), newest first.
        public var marked: [Track] = []
        /// Played tracks, newest first.
        public var played: [Track] = []
        /// Track ids never to pick: the queue, the recent history, radio's own recent picks.
        public var excluded: Set<Int> = []
        /// The artists of the queue's last tracks, oldest first (for the run rule).
        public var tail: [String] = []
        /// The track memory's tracks (what answers without a call).
        public var memory: [Track] = []
        /// Quick skips counted against each lead key.
        public var skips: [String: Int] = [:]
        /// Lead keys called in recent batches.
        public var recentlyCalled: Set<String> = []
        public init() {}
    }

    /// How a batch ended.
    public enum Outcome: Equatable, Sendable {
        /// Picks to append.
        case found
        /// A call failed (offline, refused, rate-limited) and nothing was found: the queue ends as
        /// without radio, and radio tries again at the next end.
        case unavailable(String)
        /// Nothing new, even after widening to the genre's chart (named, if one was asked).
        case nothingNew(widenedTo: String?)
        /// No lead at all: nothing marked or played to start from.
        case noSeeds
    }

    /// A batch's answer.
    public struct Result: Equatable, Sendable {
        public var picks: [(track: Track, reason: RadioReason)]
        public var outcome: Outcome
        /// The calls made, in order.
        public var calls: [RadioLead.Call]
        /// The lead keys called.
        public var called: [String]

        public static func == (a: Result, b: Result) -> Bool {
            a.outcome == b.outcome && a.calls == b.calls && a.called == b.called
                && a.picks.map(\.track) == b.picks.map(\.track) && a.picks.map(\.reason) == b.picks.map(\.reason)
        }
    }

    public let limits: Limits
    private let input: Input
    /// The leads in the order they are tried.
    public let leads: [RadioLead]
    /// Candidates with the lead each answers, in lead order (memory first, then each answer).
    private var pool: [(track: Track, lead: RadioLead, reason: RadioReason)] = []
    private var poolIds: Set<Int> = []
    private var calls: [RadioLead.Call] = []
    private var calledLeads: [RadioLead] = []
    private var failure: String?
    private var widened: RadioLead?

    /// A batch from `input`.
    public init(_ input: Input, limits: Limits = Limits()) {
        self.input = input
        self.limits = limits
        leads = Self.leads(input, limits: limits)
        for track in input.memory { offer(track) }
    }

    /// The leads of `input`, deduplicated by key, in the order they are tried.
    static func leads(_ input: Input, limits: Limits) -> [RadioLead] {
        var all: [RadioLead] = []
        all += input.marked.compactMap { RadioLead(.markedArtist, seed: $0) }
        all += input.played.compactMap { RadioLead(.playedArtist, seed: $0) }
        all += (input.marked + input.played).compactMap { RadioLead(.album, seed: $0) }
        all += (input.marked + input.played).compactMap { RadioLead(.genreChart, seed: $0) }
        var seen = Set<String>()
        let unique = all.filter { seen.insert($0.key).inserted && (input.skips[$0.key] ?? 0) < limits.dropAfterSkips }
        // Stable: each quick skip moves a lead behind the leads of the next kind; ties keep the
        // seeds' order (newest first).
        return unique.enumerated().sorted { a, b in
            let ra = a.element.kind.rawValue * 2 + (input.skips[a.element.key] ?? 0) * 3
            let rb = b.element.kind.rawValue * 2 + (input.skips[b.element.key] ?? 0) * 3
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
    }

    /// The next catalog call to make, or nil: the batch is decided (`result`).
    public mutating func nextCall() -> RadioLead.Call? {
        guard failure == nil, calls.count < limits.maxCalls, !leads.isEmpty else { return nil }
        let found = choose().count
        guard found < limits.batch else { return nil }
        let open = leads.filter { lead in !input.recentlyCalled.contains(lead.key) && !calledLeads.contains(lead) }
        let lead: RadioLead?
        if found == 0 && !calls.isEmpty {
            // The first call found nothing new: widen to the genre's chart.
            lead = open.first { $0.kind == .genreChart }
            widened = lead
        } else {
            lead = open.first
        }
        guard let lead else { return nil }
        calls.append(lead.call)
        calledLeads.append(lead)
        return lead.call
    }

    /// The answer to `call` arrived: its tracks (in the storefront the call named).
    public mutating func answered(_ call: RadioLead.Call, tracks: [Track]) {
        guard let lead = calledLeads.last(where: { $0.call == call }) else { return }
        for track in tracks where lead.matches(track) || lead.kind == .genreChart { offer(track, lead: lead, reason: lead.reason) }
    }

    /// `call` failed (`why`): the batch makes no other call.
    public mutating func failed(_ call: RadioLead.Call, _ why: String) {
        failure = why
    }

    /// What to append and how the batch ended.
    public var result: Result {
        let picks = choose()
        let outcome: Outcome
        if !picks.isEmpty { outcome = .found }
        else if let failure { outcome = .unavailable(failure) }
        else if leads.isEmpty { outcome = .noSeeds }
        else { outcome = .nothingNew(widenedTo: widened.map { $0.seed.primaryGenreName ?? "genre \($0.key.dropFirst(6))" }) }
        return Result(picks: picks, outcome: outcome, calls: calls, called: calledLeads.map(\.key))
    }

    // MARK: Choosing

    /// Adds `track` to the candidates under `lead` with `reason`; with no lead, a track of the
    /// memory, under the first lead it answers (a genre's: a song of that genre the memory holds).
    private mutating func offer(_ track: Track, lead given: RadioLead? = nil, reason: RadioReason? = nil) {
        guard let id = track.trackId, track.unplayableReason == nil, track.fetchablePreviewURL != nil,
              !input.excluded.contains(id), !poolIds.contains(id),
              let lead = given ?? leads.first(where: { $0.matches(track) }) else { return }
        poolIds.insert(id)
        pool.append((track, lead, reason ?? lead.remembered))
    }

    /// The picks from the candidates: leads in order, so marked artists weigh most, each pick the
    /// first candidate that makes no run of three by one artist.
    private func choose() -> [(track: Track, reason: RadioReason)] {
        let rank = Dictionary(leads.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { a, _ in a })
        let ordered = pool.enumerated().sorted { a, b in
            let ra = rank[a.element.lead.key] ?? Int.max, rb = rank[b.element.lead.key] ?? Int.max
            return ra != rb ? ra < rb : a.offset < b.offset
        }.map(\.element)
        var picks: [(track: Track, reason: RadioReason)] = []
        var artists = input.tail
        var taken = Set<Int>()
        var titles = Set<String>()
        while picks.count < limits.batch {
            guard let next = ordered.first(where: { candidate in
                guard let id = candidate.track.trackId, !taken.contains(id), !titles.contains(Self.song(candidate.track)) else { return false }
                let artist = Self.artist(candidate.track)
                return !(artists.count >= 2 && artists[artists.count - 1] == artist && artists[artists.count - 2] == artist)
            }) else { break }
            taken.insert(next.track.trackId!)
            titles.insert(Self.song(next.track))
            artists.append(Self.artist(next.track))
            picks.append((next.track, next.reason))
        }
        return picks
    }

    /// Who a track is by, for the run rule: the artist's name (a chart's entries carry no artist
    /// id), else the id.
    public static func artist(_ track: Track) -> String {
        track.artistName.map { $0.lowercased() } ?? "id:\(track.artistId ?? 0)"
    }

    /// A song across its releases (a single and its album's track): its artist and title.
    private static func song(_ track: Track) -> String {
        artist(track) + "|" + (track.trackName ?? "").lowercased()
    }
}
