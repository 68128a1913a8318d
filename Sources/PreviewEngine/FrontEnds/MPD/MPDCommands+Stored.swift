import PreviewCore

/// MPD's stored playlists are previewd's saved lists (`save`, `load`, `lists`, `forget`, …), with
/// MPD's answers (src/command/PlaylistCommands.cxx, src/PlaylistError.hxx): a list that does not
/// exist is `ACK [50] No such playlist` (GMPC's libmpd and Cantata ask for lists that may not be
/// there and pass over that code only), a name taken is `[56] Playlist already exists`.
extension MPDCommands {
    /// `listplaylists`: every saved list, each with its `Last-Modified` (Cantata keeps an entry
    /// only when that line follows it: mpd-interface/mpdparseutils.cpp).
    static func listplaylists(_ call: MPDCall) async throws(MPDError) {
        for list in try await lists(call) {
            call.response.add("playlist", list.name)
            call.response.add("Last-Modified", MPDResponse.timestamp(list.modified ?? 0))
        }
    }

    /// `listplaylist NAME [START:END]`: its songs' URIs.
    static func listplaylist(_ call: MPDCall) async throws(MPDError) {
        for track in try await tracks(call) { call.response.add("file", MPDSong.uri(of: track)) }
    }

    /// `listplaylistinfo NAME [START:END]`: its songs.
    static func listplaylistinfo(_ call: MPDCall) async throws(MPDError) {
        for track in try await tracks(call) { call.addSong(track) }
    }

    /// `save NAME [create|append|replace]`: an existing name is refused unless the mode says (MPD).
    static func save(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        let mode = call.argument(1) ?? "create"
        guard ["create", "append", "replace"].contains(mode) else { throw MPDError(.arg, "Unrecognized save mode: \(mode.prefix(32))") }
        if mode == "create", try await lists(call).contains(where: { $0.name == name.description }) {
            throw MPDError(.exist, "Playlist already exists")
        }
        _ = try await call.perform(.save(name, mode: ListSaveMode(rawValue: mode) ?? .create))
    }

    /// `load NAME [START:END] [POS]`: its songs into the queue, at the end or at POS.
    static func load(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        let at = try place(call.argument(2), call)
        if let text = call.argument(1), !text.isEmpty {
            let all = try await tracks(call, name: name, range: nil)
            // MPD loads what of the range the list has: nothing when it starts past its end.
            let asked = try MPDRange(text)
            let range = min(asked.start, all.count)..<min(asked.end ?? all.count, all.count)
            guard !range.isEmpty else { return }
            _ = try await add(.tracks(Array(all[range])), at: at, call)
        } else {
            _ = try await onList(name, call) { () async throws(MPDError) in try await call.perform(.load(name, Enqueue(append: true, play: false, at: at))) }
        }
    }

    /// `rm NAME`.
    static func rm(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        _ = try await onList(name, call) { () async throws(MPDError) in try await call.perform(.forget(name)) }
    }

    /// `rename NAME NEW`.
    static func rename(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0)), new = try listName(call.argument(1))
        let names = try await lists(call).map(\.name)
        guard names.contains(name.description) else { throw MPDError(.noExist, "No such playlist") }
        guard !names.contains(new.description) else { throw MPDError(.exist, "Playlist exists already") }
        _ = try await call.perform(.rename(name, to: new))
    }

    /// `playlistadd NAME URI`: a catalog track, album or artist, or a folder's songs, at the end
    /// of the list (made if it is not there, as MPD makes it).
    static func playlistadd(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        guard call.argument(2) == nil else { throw MPDError(.arg, "previewd adds to the end of a saved list only") }
        let uri = call.argument(1) ?? ""
        let database = await call.server.library.database()
        let source: AddSource
        if database.directory(uri) != nil {
            source = .tracks(database.songs(under: uri))
        } else {
            switch try MPDSong.target(uri) {
            case .track(let id):
                guard try await isPlayable(id, call) else { throw MPDError(.noExist, "No such song") }
                source = .trackIds([id])
            case .album(let id), .artist(let id): source = .tracks(try await lookup([id], call))
            case .url: throw MPDError(.arg, "a saved list holds catalog tracks: use itunes:track:ID")
            }
        }
        _ = try await call.perform(.listAdd(name, source))
    }

    /// `playlistmove NAME FROM TO`.
    static func playlistmove(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        let from = try call.int(1, in: 0...Int(UInt32.max)), to = try call.int(2, in: 0...Int(UInt32.max))
        _ = try await onList(name, call) { () async throws(MPDError) in try await call.perform(.listMove(name, from: from, to: to)) }
    }

    /// `playlistdelete NAME POS`.
    static func playlistdelete(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        let index = try call.int(1, in: 0...Int(UInt32.max))
        _ = try await onList(name, call) { () async throws(MPDError) in try await call.perform(.listRemove(name, index: index)) }
    }

    /// `playlistclear NAME`.
    static func playlistclear(_ call: MPDCall) async throws(MPDError) {
        let name = try listName(call.argument(0))
        _ = try await onList(name, call) { () async throws(MPDError) in try await call.perform(.listRemove(name, index: nil)) }
    }

    /// Runs `body` on the list `name`: when the engine refuses, MPD's code says why (the list
    /// does not exist: 50; a position it does not have: `Bad song index`).
    private static func onList<T>(_ name: ListName, _ call: MPDCall, _ body: () async throws(MPDError) -> T) async throws(MPDError) -> T {
        do throws(MPDError) {
            return try await body()
        } catch where error.code == .arg {
            guard try await lists(call).contains(where: { $0.name == name.description }) else { throw MPDError(.noExist, "No such playlist") }
            if error.message.hasPrefix("no track at index") { throw MPDError(.arg, "Bad song index") }
            throw error
        }
    }

    private static func listName(_ text: String?) throws(MPDError) -> ListName {
        do throws(ControlError) { return try ListName(text ?? "") } catch { throw MPDError(.arg, error.message) }
    }

    private static func lists(_ call: MPDCall) async throws(MPDError) -> [ListSummary] {
        guard case .lists(let report) = try await call.perform(.lists(nil)) else { return [] }
        return report.lists
    }

    /// The tracks of the list named by argument 0, within argument 1's range when given.
    private static func tracks(_ call: MPDCall) async throws(MPDError) -> [Track] {
        try await tracks(call, name: try listName(call.argument(0)), range: call.argument(1))
    }

    private static func tracks(_ call: MPDCall, name: ListName, range: String?) async throws(MPDError) -> [Track] {
        guard case .list(let report) = try await onList(name, call, { () async throws(MPDError) in try await call.perform(.lists(name)) }) else { return [] }
        let tracks = report.tracks ?? []
        guard let range else { return tracks }
        return Array(tracks[try MPDRange(range).range(count: tracks.count)])
    }
}
