import PreviewCore

extension MPDCommands {
    /// `find FILTER [sort TAG] [window START:END]`: exact, through the catalog.
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
        let tracks = try await matching(search, call, exact: exact)
        guard !tracks.isEmpty else { return }
        _ = try await add(.tracks(Array(tracks.prefix(PlayQueue.maxCount))), at: try place(search.position, call), call)
    }

    /// `count FILTER [group TAG]`: songs and playtime of what the catalog finds.
    static func count(_ call: MPDCall) async throws(MPDError) {
        let search = try MPDSearch(call.arguments, exact: true)
        let tracks = try await matching(search, call, exact: true)
        func total(_ tracks: [Track]) {
            call.response.add("songs", tracks.count)
            call.response.add("playtime", tracks.reduce(0) { $0 + ($1.trackTimeMillis ?? 0) } / 1000)
        }
        guard let group = search.groups.first else { return total(tracks) }
        for (value, members) in grouped(tracks, by: group) {
            call.response.add(group.rawValue, value)
            total(members)
        }
    }

    /// `list TAG [FILTER] [group TAG…]`: the values of TAG among what the filter finds. Without a
    /// filter there is no database to list: the answer is empty, at once.
    static func list(_ call: MPDCall) async throws(MPDError) {
        let name = call.argument(0) ?? ""
        let field = MPDFilter.Field(named: name)
        switch field {
        case .file?, .tag?: break
        case .unfilled?: return
        default: throw MPDError(.arg, "Unknown tag type: \(name.prefix(64))")
        }
        var rest = Array(call.arguments.dropFirst())
        if rest.count == 1, !rest[0].hasPrefix("("), case .tag(.album) = field { rest = ["artist", rest[0]] }   // `list album ARTIST` (MPD < 0.21)
        let search = try MPDSearch(rest, exact: true, filterRequired: false)
        guard search.filter != nil else { return }
        let tracks = try await matching(search, call, exact: true)
        var seen = Set<[String]>()
        for track in tracks {
            let groups = search.groups.map { $0.value(of: track) ?? "" }
            let value = if case .tag(let tag)? = field { tag.value(of: track) ?? "" } else { MPDSong.uri(of: track) }
            guard seen.insert(groups + [value]).inserted else { continue }
            for (tag, group) in zip(search.groups, groups) { call.response.add(tag.rawValue, group) }
            let key = if case .tag(let tag) = field { tag.rawValue } else { "file" }
            call.response.add(key, value)
        }
    }

    /// `lsinfo [URI]`: at the root, the saved lists; a catalog track by its URI.
    static func lsinfo(_ call: MPDCall) async throws(MPDError) {
        let uri = call.argument(0) ?? ""
        if uri.isEmpty || uri == "/" { return try await listplaylists(call) }
        guard case .track(let id) = try MPDSong.target(uri), let track = try await lookup([id], call).first else {
            throw MPDError(.noExist, "No such directory")
        }
        call.addSong(track)
    }

    /// `listall`, `listallinfo`: previewd has no music folder; the root is empty, anything else
    /// does not exist.
    static func listall(_ call: MPDCall) async throws(MPDError) {
        let uri = call.argument(0) ?? ""
        guard uri.isEmpty || uri == "/" else { throw MPDError(.noExist, "No such directory") }
    }

    /// The catalog's songs that meet the command's filter, sorted and windowed.
    static func matching(_ call: MPDCall, exact: Bool) async throws(MPDError) -> [Track] {
        try await matching(try MPDSearch(call.arguments, exact: exact), call, exact: exact)
    }

    static func matching(_ search: MPDSearch, _ call: MPDCall, exact: Bool) async throws(MPDError) -> [Track] {
        guard let filter = search.filter else { return [] }
        let found: [Track]
        switch try filter.catalogPlan() {
        case .nothing: return []
        case .lookup(let ids): found = try await lookup(ids, call)
        case .search(let query):
            let result: ControlResult
            do throws(MPDError) {
                result = try await call.perform(.search(query, Enqueue(play: false, queue: false)))
            } catch where error.code == .noExist {
                return []
            }
            guard case .catalog(let report) = result else { return [] }
            found = playable(report)
        }
        return search.arrange(found.filter { filter.matches($0, foldCase: !exact) })
    }

    private static func grouped(_ tracks: [Track], by tag: MPDTag) -> [(String, [Track])] {
        var order: [String] = []
        var groups: [String: [Track]] = [:]
        for track in tracks {
            let value = tag.value(of: track) ?? ""
            if groups[value] == nil { order.append(value) }
            groups[value, default: []].append(track)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }
}
