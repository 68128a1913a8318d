import PreviewCore

/// The database's folders (`MPDDatabase`): `lsinfo`, `listall`, `listallinfo`, `listfiles`, as
/// MPD's src/command/DatabaseCommands.cxx and OtherCommands.cxx answer them (a folder's path with a
/// trailing `/` is no folder to MPD's database, nor here: `No such directory`).
extension MPDCommands {
    /// `lsinfo [URI]`: a folder's folders (with `Last-Modified`) and songs; at the root, the saved
    /// lists after them (`playlist:`, as MPD lists stored playlists there); a song by its URI.
    static func lsinfo(_ call: MPDCall) async throws(MPDError) {
        let uri = try located(call.argument(0) ?? "")
        let database = await call.server.library.database()
        if let directory = database.directory(uri) {
            for path in directory.folders {
                call.response.add("directory", path)
                call.response.add("Last-Modified", MPDResponse.timestamp(database.updated))
            }
            for id in directory.songs { if let track = database.song(id) { call.addSong(track) } }
            if MPDDatabase.normalized(uri).isEmpty { try await listplaylists(call) }
            return
        }
        call.addSong(try await song(uri, database, call))
    }

    /// `listall [URI]`: every folder and song under URI, by path and URI.
    static func listall(_ call: MPDCall) async throws(MPDError) {
        try await walk(call, full: false)
    }

    /// `listallinfo [URI]`: the same with each song's tags and each folder's `Last-Modified`.
    static func listallinfo(_ call: MPDCall) async throws(MPDError) {
        try await walk(call, full: true)
    }

    /// `listfiles [URI]`: the names in one folder, as MPD reads a folder of its storage (a trailing
    /// `/` is taken; a folder that is not there is a system error, its `Failed to open`).
    static func listfiles(_ call: MPDCall) async throws(MPDError) {
        var uri = try located(call.argument(0) ?? "")
        while uri.hasSuffix("/") { uri.removeLast() }
        let database = await call.server.library.database()
        guard let directory = database.directory(uri) else { throw MPDError(.system, "Failed to open \(uri.prefix(256)): No such file or directory") }
        for path in directory.folders { call.response.add("directory", String(path.split(separator: "/").last ?? "")) }
        for id in directory.songs { call.response.add("file", "itunes:track:\(id)") }
    }

    private static func walk(_ call: MPDCall, full: Bool) async throws(MPDError) {
        let uri = try located(call.argument(0) ?? "")
        let database = await call.server.library.database()
        guard database.directory(uri) != nil else {
            let track = try await song(uri, database, call)
            return full ? call.addSong(track) : call.response.add("file", MPDSong.uri(of: track))
        }
        func visit(_ path: String) {
            guard let directory = database.directory(path) else { return }
            for id in directory.songs {
                guard let track = database.song(id) else { continue }
                if full { call.addSong(track) } else { call.response.add("file", MPDSong.uri(of: track)) }
            }
            for folder in directory.folders {
                call.response.add("directory", folder)
                if full { call.response.add("Last-Modified", MPDResponse.timestamp(database.updated)) }
                visit(folder)
            }
        }
        visit(MPDDatabase.normalized(uri))
    }

    /// The song `uri` names: from the database, else looked up; MPD's answer when there is none.
    private static func song(_ uri: String, _ database: MPDDatabase, _ call: MPDCall) async throws(MPDError) -> Track {
        guard case .track(let id)? = try? MPDSong.target(uri) else { throw MPDError(.noExist, "No such directory") }
        if let track = database.song(id) { return track }
        guard let track = try await lookup([id], call).first else { throw MPDError(.noExist, "No such directory") }
        return track
    }

    /// `uri` as MPD locates it before a database command: `/` is the root (an old clients'
    /// habit MPD keeps), a URL of a scheme previewd does not play is refused as MPD refuses it.
    private static func located(_ uri: String) throws(MPDError) -> String {
        if uri == "/" { return "" }
        if let scheme = uri.firstRange(of: "://"), !["http", "https"].contains(uri[..<scheme.lowerBound].lowercased()) {
            throw MPDError(.arg, "Unsupported URI scheme")
        }
        return uri
    }
}
