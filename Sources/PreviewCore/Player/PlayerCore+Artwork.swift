/// The artwork around the current track (`ArtworkWindow`): which pictures are wanted after every
/// change, and the current track's told to subscribers once it is here.
extension PlayerCore {
    /// The artwork URL of the current track.
    var currentArtworkURL: String? { transport.item.flatMap(artworkURL(item:)) }

    /// The artwork URL of queue item `item` (Apple's 100-pixel one, which `ArtworkSource` enlarges).
    public func artworkURL(item: Int) -> String? {
        guard let track = queue[id: item]?.track else { return nil }
        return track.artworkUrl100 ?? track.artworkUrl60 ?? track.artworkUrl30
    }

    /// The artwork of the current track, the next and the previous one is fetched.
    mutating func updateArtwork(into effects: inout [Effect]) {
        var wanted: [String] = []
        if let item = transport.item {
            for i in [item, transport.following(in: queue), transport.previous(in: queue)].compactMap({ $0 }) {
                if let url = artworkURL(item: i), !wanted.contains(url) { wanted.append(url) }
            }
        }
        guard artwork.move(to: wanted) else { return }
        if !wanted.isEmpty { effects.append(.fetchArtwork(wanted)) }
    }

    /// The artwork at `url` is cached at `path`: kept while it is in the window, and told when it
    /// is the current track's.
    mutating func artworkArrived(_ url: String, path: String, into effects: inout [Effect]) {
        guard artwork.arrived(url, path: path) else { return }
        // Told once: the same image arriving again (fetched anew as the window moved) is no news.
        if url == currentArtworkURL, artwork.announced != path, let position {
            artwork.announce(path)
            effects.append(.notify(.artwork(index: position, path: path, id: transport.item)))
        }
    }
}
