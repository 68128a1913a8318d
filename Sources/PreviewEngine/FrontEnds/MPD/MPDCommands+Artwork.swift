import PreviewCore

extension MPDCommands {
    /// `albumart URI OFFSET`: the cover of a queued track, in chunks of at most `binarylimit`.
    static func albumart(_ call: MPDCall) async throws(MPDError) {
        guard let chunk = try await artwork(call) else { throw MPDError(.noExist, "No file exists") }
        call.response.add("size", chunk.size)
        call.response.addBinary(chunk.data)
    }

    /// `readpicture URI OFFSET`: the same with its `type`; nothing at all when there is no picture.
    static func readpicture(_ call: MPDCall) async throws(MPDError) {
        guard let chunk = try await artwork(call) else { return }
        call.response.add("size", chunk.size)
        call.response.add("type", chunk.mime)
        call.response.addBinary(chunk.data)
    }

    /// The chunk of the artwork of the queue item playing URI (the current one first) from
    /// OFFSET; nil when the track is not queued or has no artwork.
    private static func artwork(_ call: MPDCall) async throws(MPDError) -> (size: Int, mime: String, data: ArraySlice<UInt8>)? {
        guard case .track(let trackId) = try MPDSong.target(call.argument(0) ?? "") else { return nil }
        let offset = try call.int(1, in: 0...Int.max)
        let status = call.status()
        let itemId: Int
        if status.track?.trackId == trackId, let id = status.id {
            itemId = id
        } else if let item = try await call.queue().items.first(where: { $0.track.trackId == trackId }) {
            itemId = item.id
        } else {
            return nil
        }
        let result: ControlResult
        do throws(MPDError) { result = try await call.perform(.artworkFile(.id(itemId), offset: offset)) } catch where error.code != .system {
            return nil
        }
        guard case .artworkFile(let report) = result else { return nil }
        guard offset <= report.size else { throw MPDError(.arg, "Bad file offset") }
        return (report.size, report.mime, report.data.prefix(call.session.binaryLimit)[...])
    }
}
