import PreviewCore

/// Covers (MPD's src/command/FileCommands.cxx): the original artwork of any song previewd has
/// met or queued (the engine's `artwork` by trackId), in chunks of at most `binarylimit`. A song's
/// URI with a trailing `/` (the folder form Cantata asks with) names the same song: its folder
/// holds it alone.
extension MPDCommands {
    /// `albumart URI OFFSET`: MPD's cover of the song's folder; `No file exists` when there is none.
    static func albumart(_ call: MPDCall) async throws(MPDError) {
        let offset = try call.int(1, in: 0...Int(UInt32.max))
        guard let file = try await artwork(call, offset: offset) else { throw MPDError(.noExist, "No file exists") }
        guard offset <= file.size else { throw MPDError(.arg, "Offset too large") }
        call.response.add("size", file.size)
        call.response.addBinary(file.data.prefix(call.session.binaryLimit))
    }

    /// `readpicture URI OFFSET`: the song's picture with its `type`; nothing at all when the song
    /// has none, `Failed to load file` when there is no such song.
    static func readpicture(_ call: MPDCall) async throws(MPDError) {
        let offset = try call.int(1, in: 0...Int(UInt32.max))
        guard let file = try await artwork(call, offset: offset) else {
            guard await isKnown(call.argument(0) ?? "", call) else { throw MPDError(.noExist, "Failed to load file") }
            return
        }
        guard offset <= file.size else { throw MPDError(.arg, "Bad file offset") }
        call.response.add("size", file.size)
        call.response.add("type", file.mime)
        call.response.addBinary(file.data.prefix(call.session.binaryLimit))
    }

    /// The chunk from `offset` of the artwork of the song URI names; nil when there is no such
    /// song or it has no artwork (the catalog named none, or it could not be fetched).
    private static func artwork(_ call: MPDCall, offset: Int) async throws(MPDError) -> ArtworkFileReport? {
        guard case .track(let trackId)? = try? MPDSong.target(call.argument(0) ?? "") else { return nil }
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
