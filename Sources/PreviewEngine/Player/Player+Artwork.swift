import PreviewCore

/// Artwork: the core names the window (the current track and its neighbours); what is not cached
/// is fetched, so MPRIS can show it (`status.artwork`, the `artwork` event) and previewctl can
/// draw it (`artwork`).
extension Player {
    /// Fetches what is missing of `urls`; returns the arrivals of those already cached.
    func fetchArtwork(_ urls: [String]) -> [PlayerCore.Event] {
        guard let artwork else { return [] }
        var cached: [PlayerCore.Event] = []
        for url in urls {
            if let path = artwork.cachedPath(for: url) {
                cached.append(.artworkArrived(url: url, path: path))
            } else if artworkFetches[url] == nil {
                // On the loop like every task: the store is confined to it. Kept until it ends, so
                // shutdown waits for it (a task resumed after the loop stopped would never end).
                artworkFetches[url] = Task(executorPreference: loop) { [self] in
                    let path = await artwork.fetch(url)
                    await artworkFetchEnded(url, path: path)
                }
            }
        }
        return cached
    }

    private func artworkFetchEnded(_ url: String, path: String?) {
        artworkFetches[url] = nil
        if let path, !isShutDown { handle(.artworkArrived(url: url, path: path)) }
    }

    /// Queue item `item`'s artwork (the current one's when nil) as an RGB picture fitting
    /// `width` × `height`, fetched first when needed.
    func artworkThumbnail(_ item: Int?, width: Int, height: Int) async throws -> ArtworkReport {
        guard let item = item ?? core.transport.item else { throw ControlError(.rejected, "nothing is playing") }
        guard let artwork else { throw ControlError(.rejected, "artwork is off (no cache folder)") }
        guard let url = core.artworkURL(item: item) else { throw ControlError(.rejected, "the track has no artwork") }
        guard let path = await artwork.fetch(url) else { throw ControlError(.rejected, "the artwork could not be fetched") }
        let made = await ArtworkStore.onDisk { () -> Result<ArtworkReport, ArtworkError> in
            guard let bytes = ArtworkStore.read(path) else {
                return .failure(ArtworkError("cannot read \(path)"))
            }
            return Result { () throws(ArtworkError) in try ArtworkThumbnail.make(from: bytes, fitting: width, height) }
        }
        switch made {
        case .success(let report): return report
        case .failure(let error): throw ControlError(.invalidData, "artwork: \(error)")
        }
    }
}

extension Player {
    /// A chunk of queue item `item`'s artwork file (the current one's when nil) as fetched, from
    /// `offset`: at most `ArtworkFileReport.maxChunk` bytes, read on the disk thread.
    func artworkFile(_ item: Int?, offset: Int) async throws -> ArtworkFileReport {
        guard let item = item ?? core.transport.item else { throw ControlError(.rejected, "nothing is playing") }
        guard let artwork else { throw ControlError(.rejected, "artwork is off (no cache folder)") }
        guard let url = core.artworkURL(item: item) else { throw ControlError(.rejected, "the track has no artwork") }
        return try await artworkChunk(artwork, url: url, large: true, offset: offset)
    }

    /// A chunk of the artwork file of track `trackId`, in the track memory (answered lately) or in
    /// the queue; `small`: Apple's 100-pixel image, for a results list.
    func artworkFile(trackId: Int, small: Bool, offset: Int) async throws -> ArtworkFileReport {
        guard let artwork else { throw ControlError(.rejected, "artwork is off (no cache folder)") }
        let queued = core.queue.items.first { $0.track.trackId == trackId }.flatMap { core.artworkURL(item: $0.id) }
        let seen = catalog.memory.track(trackId).flatMap { $0.artworkUrl100 ?? $0.artworkUrl60 ?? $0.artworkUrl30 }
        guard let url = seen ?? queued else {
            throw ControlError(.rejected, "track \(trackId) was not answered lately, or has no artwork")
        }
        return try await artworkChunk(artwork, url: url, large: !small, offset: offset)
    }

    private func artworkChunk(_ artwork: ArtworkStore, url: String, large: Bool, offset: Int) async throws -> ArtworkFileReport {
        guard let path = await artwork.fetch(url, large: large) else { throw ControlError(.rejected, "the artwork could not be fetched") }
        let chunk = await ArtworkStore.onDisk { ArtworkStore.read(path, offset: offset, count: ArtworkFileReport.maxChunk) }
        guard let chunk else { throw ControlError(.invalidData, "artwork: cannot read \(path)") }
        let mime = path.hasSuffix(".png") ? "image/png" : "image/jpeg"
        return ArtworkFileReport(mime: mime, size: chunk.size, offset: offset, data: chunk.bytes)
    }
}
