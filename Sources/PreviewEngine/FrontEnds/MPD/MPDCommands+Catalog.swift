import PreviewCore

/// `find`, `search`, their adds and `list`: the database's songs (what previewd has met,
/// `MPDDatabase`) first, then, when there is a filter, the catalog's that are not among them (one
/// call of the iTunes API, cached, under the rate governor), sorted and windowed as one list.
/// `count` counts the database's alone.
extension MPDCommands {
    /// `find FILTER [sort TAG] [window START:END]`: exact (MPD's equality, case kept).
    static func find(_ call: MPDCall) async throws(MPDError) {
        try await show(matching(call, exact: true), call)
    }

    /// `search FILTER …`: contains, any case.
    static func search(_ call: MPDCall) async throws(MPDError) {
        try await show(matching(call, exact: false), call)
    }

    /// Answers `tracks` as songs; the client shows them in this order, so previewd keeps their
    /// first seconds ready for the one the listener picks (`visible`).
    private static func show(_ tracks: [Track], _ call: MPDCall) async {
        for track in tracks { call.addSong(track) }
        let ids = tracks.compactMap(\.trackId)
        if !ids.isEmpty { _ = try? await call.perform(.visible(Array(ids.prefix(200)))) }
    }

    /// `findadd FILTER [sort] [window] [position POS]`.
    static func findadd(_ call: MPDCall) async throws(MPDError) { try await addMatching(call, exact: true) }

    /// `searchadd FILTER …`.
    static func searchadd(_ call: MPDCall) async throws(MPDError) { try await addMatching(call, exact: false) }

    private static func addMatching(_ call: MPDCall, exact: Bool) async throws(MPDError) {
        let search = try MPDSearch(call.arguments, exact: exact)
        let at = try place(search.position, call)
        let tracks = try await matching(search, call, exact: exact)
        guard !tracks.isEmpty else { return }
        _ = try await add(.tracks(Array(tracks.prefix(PlayQueue.maxCount))), at: at, call)
    }

    /// `count FILTER [group TAG]`, `count group TAG`: the database's songs that meet the filter and
    /// what they play for (their previews). The database's alone, as MPD counts its own: Sonata
    /// counts every row of its artist and genre lists so, and a catalog call each would spend the
    /// rate governor's minute on one screen.
    static func count(_ call: MPDCall) async throws(MPDError) {
        let search = try MPDSearch(call.arguments, exact: true, filterRequired: false)
        guard search.filter != nil || !search.groups.isEmpty else { throw MPDError(.arg, "Incorrect number of filter arguments") }
        let database = await call.server.library.database()
        let tracks = database.songs.filter { search.filter?.matches($0, folder: database.folder(of: $0), foldCase: false) ?? true }
        func total(_ tracks: [Track]) {
            call.response.add("songs", tracks.count)
            call.response.add("playtime", tracks.reduce(0) { $0 + PreviewLength.estimateMs($1) } / 1000)
        }
        guard let group = search.groups.last else { return total(tracks) }
        let byValue = Dictionary(grouping: tracks) { group.value(of: $0) ?? "" }
        for value in byValue.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            call.response.add(group.rawValue, value)
            total(byValue[value] ?? [])
        }
    }

    /// `list TAG [FILTER] [group TAG…]`: the values of TAG among the database's songs, or, with a
    /// filter, among what `find` finds; as MPD writes them (src/db/UniqueTags.cxx): sorted, a
    /// song without the tag counted as the empty value, each group's value before what it holds,
    /// the last `group` outermost.
    static func list(_ call: MPDCall) async throws(MPDError) {
        let name = call.argument(0) ?? ""
        let field = MPDFilter.Field(named: name)
        switch field {
        case .file?, .tag?: break
        case .unfilled?: return
        default: throw MPDError(.arg, "Unknown tag type: \(name.prefix(64))")
        }
        var rest = Array(call.arguments.dropFirst())
        if rest.count == 1, !rest[0].hasPrefix("(") {
            // `list album ARTIST` (MPD < 0.12's form); MPD refuses it for any other tag.
            guard case .tag(.album) = field else { throw MPDError(.arg, "should be \"Album\" for 3 arguments") }
            rest = ["artist", rest[0]]
        }
        let search = try MPDSearch(rest, exact: true, filterRequired: false)
        let tracks = search.filter == nil ? await call.server.library.database().songs : try await matching(search, call, exact: true)
        guard case .tag(let tag)? = field else {
            for track in tracks { call.response.add("file", MPDSong.uri(of: track)) }
            return
        }
        let levels = Array(search.groups.reversed()) + [tag]
        guard Set(levels).count == levels.count else { throw MPDError(.arg, "Conflicting group") }
        listLevel(tracks, levels[...], call)
    }

    private static func listLevel(_ tracks: [Track], _ levels: ArraySlice<MPDTag>, _ call: MPDCall) {
        guard let tag = levels.first else { return }
        let byValue = Dictionary(grouping: tracks) { tag.value(of: $0) ?? "" }
        for value in byValue.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            call.response.add(tag.rawValue, value)
            listLevel(byValue[value] ?? [], levels.dropFirst(), call)
        }
    }

    /// The songs that meet the command's filter, sorted and windowed.
    static func matching(_ call: MPDCall, exact: Bool) async throws(MPDError) -> [Track] {
        try await matching(try MPDSearch(call.arguments, exact: exact), call, exact: exact)
    }

    /// The database's songs that meet `search`'s filter, then the catalog's that are not among
    /// them, sorted and windowed as one list. When the catalog cannot answer (offline, the rate
    /// governor) and the database has songs to give, they are the answer.
    static func matching(_ search: MPDSearch, _ call: MPDCall, exact: Bool) async throws(MPDError) -> [Track] {
        guard let filter = search.filter else { return [] }
        let database = await call.server.library.database()
        let met = database.songs.filter { filter.matches($0, folder: database.folder(of: $0), foldCase: !exact) }
        let known = Set(met.compactMap(\.trackId))
        do throws(MPDError) {
            let found = try await catalogMatches(filter, database: database, call).filter {
                !known.contains($0.trackId ?? -1) && filter.matches($0, foldCase: !exact)
            }
            return search.arrange(met + found)
        } catch where !met.isEmpty {
            call.engine.log(.info, "MPD \(call.name): the catalog did not answer (\(error.message)); answered from what previewd has met")
            return search.arrange(met)
        }
    }

    /// The catalog's candidates for `filter`: one search of its words, or a lookup of the songs it
    /// names by URI that the database does not hold.
    private static func catalogMatches(_ filter: MPDFilter, database: MPDDatabase, _ call: MPDCall) async throws(MPDError) -> [Track] {
        switch try filter.catalogPlan() {
        case .nothing: return []
        case .lookup(let ids):
            let unknown = ids.filter { database.song($0) == nil }
            return unknown.isEmpty ? [] : try await lookup(unknown, call)
        case .search(let query):
            let result: ControlResult
            do throws(MPDError) {
                result = try await call.perform(.search(query, Enqueue(play: false, queue: false)))
            } catch where error.code == .noExist {
                return []
            }
            guard case .catalog(let report) = result else { return [] }
            return playable(report)
        }
    }
}
