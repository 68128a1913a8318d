import PreviewCore

/// Artwork: fetched for the current track and the neighbours held beside it, so MPRIS can show it
/// (`status.artwork`, the `artwork` event) and previewctl can draw it (`artwork`).
extension Player {
    /// The artwork URL of queue item `index` (Apple's 100-pixel one, which `ArtworkSource` enlarges).
    func artworkURL(index: Int) -> String? {
        guard let track = core.queue[safe: index]?.track else { return nil }
        return track.artworkUrl100 ?? track.artworkUrl60 ?? track.artworkUrl30
    }

    /// The cached artwork file of queue item `index`, if it is here.
    func artworkPath(index: Int) -> String? {
        guard let artwork, let url = artworkURL(index: index) else { return nil }
        return artwork.cachedPath(for: url)
    }

    /// Fetches what is missing of the artwork of the current track, the next and the previous one.
    func fetchArtwork() {
        guard let artwork, let index = core.transport.index else { return }
        let wanted = [index, core.transport.upcoming(in: core.queue), core.transport.previous(in: core.queue)]
        for url in Set(wanted.compactMap { $0.flatMap(artworkURL(index:)) })
        where artwork.cachedPath(for: url) == nil && artworkFetches[url] == nil {
            // On the loop like every task: the store is confined to it. Kept until it ends, so
            // shutdown waits for it (a task resumed after the loop stopped would never end).
            artworkFetches[url] = Task(executorPreference: loop) { [self] in
                let fetched = await artwork.fetch(url) != nil
                await artworkFetchEnded(url, fetched: fetched)
            }
        }
    }

    private func artworkFetchEnded(_ url: String, fetched: Bool) {
        artworkFetches[url] = nil
        if fetched, !isShutDown { publishChanges() }   // the current track's artwork may have arrived
    }

    /// Queue item `index`'s artwork (the current one's when nil) as an RGB picture fitting
    /// `width` × `height`, fetched first when needed.
    func artworkThumbnail(_ index: Int?, width: Int, height: Int) async throws -> ArtworkReport {
        guard let i = index ?? core.transport.index else { throw ControlError(.rejected, "nothing is playing") }
        guard core.queue[safe: i] != nil else { throw ControlError(.badArgument, "no queue item \(i)") }
        guard let artwork else { throw ControlError(.rejected, "artwork is off (no cache folder)") }
        guard let url = artworkURL(index: i) else { throw ControlError(.rejected, "the track has no artwork") }
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
