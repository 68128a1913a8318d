import PreviewCore

/// Covers (MPD's src/command/FileCommands.cxx): the original artwork of any song previewd has
/// met or queued (the engine's `artwork` by trackId), in chunks of at most `binarylimit`.
extension MPDCommands {
    /// `albumart URI OFFSET`: the cover of the song's folder, as MPD's (it reads the folder a URI
    /// is in: `DIR/song` and `DIR/` both mean DIR). previewd's songs have no folder of their own,
    /// so Cantata, which asks by the song's folder (`Utils::getDir`), sends `itunes:track:ID/`:
    /// that song's cover. `No file exists` when there is none.
    static func albumart(_ call: MPDCall) async throws(MPDError) {
        let offset = try call.int(1, in: 0...Int(UInt32.max))
        var uri = call.argument(0) ?? ""
        if uri.hasSuffix("/") { uri.removeLast() }
        guard let file = try await artwork(uri, offset: offset, call) else { throw MPDError(.noExist, "No file exists") }
        guard offset <= file.size else { throw MPDError(.arg, "Offset too large") }
        call.response.add("size", file.size)
        call.response.addBinary(file.data.prefix(call.session.binaryLimit))
    }

    /// `readpicture URI OFFSET`: the song's picture with its `type`; nothing at all when the song
    /// has none, `No such song` when there is no such song.
    static func readpicture(_ call: MPDCall) async throws(MPDError) {
        let offset = try call.int(1, in: 0...Int(UInt32.max))
        guard let file = try await artwork(call.argument(0) ?? "", offset: offset, call) else {
            guard await isKnown(call.argument(0) ?? "", call) else { throw MPDError(.noExist, "No such song") }
            return
        }
        guard offset <= file.size else { throw MPDError(.arg, "Bad file offset") }
        call.response.add("size", file.size)
        call.response.add("type", file.mime)
        call.response.addBinary(file.data.prefix(call.session.binaryLimit))
    }

    /// The chunk from `offset` of the artwork of the song URI names; nil when there is no such
    /// song or it has no artwork (the catalog named none, or it could not be fetched).
    private static func artwork(_ uri: String, offset: Int, _ call: MPDCall) async throws(MPDError) -> ArtworkFileReport? {
        guard case .track(let trackId)? = try? MPDSong.target(uri) else { return nil }
        do throws(MPDError) {
            guard case .artworkFile(let report) = try await call.perform(.trackArtworkFile(trackId: trackId, small: false, offset: offset)) else { return nil }
            return report
        } catch where error.code != .system {
            return nil
        }
    }

    /// True when `uri` names a song the database or the queue holds.
    private static func isKnown(_ uri: String, _ call: MPDCall) async -> Bool {
        guard case .track(let id)? = try? MPDSong.target(uri) else { return false }
        if await call.server.library.database().song(id) != nil { return true }
        return call.engine.queue().items.contains { $0.track.trackId == id }
    }
}
