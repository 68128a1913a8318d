import PreviewCore

/// `library`: what previewd has met, for a front-end to browse (MPD's database). The tracks are
/// the track memory's; the ways to them are the shortlist (read from its file, kept until a list
/// command changes it), the history (the journal's newest 2,000, kept in memory once read), the
/// latest chart and the recent searches (`RecentAnswers`). Nothing here calls the catalog.
extension Player {
    func library() async -> LibraryReport {
        var tracks = catalog.memory.snapshot.tracks
        var held = Set(tracks.compactMap(\.trackId))
        func keep(_ track: Track) {
            guard let id = track.trackId, held.insert(id).inserted else { return }
            tracks.append(track)
        }
        let marked = await markedTracks()
        marked.forEach(keep)
        // Heard, newest first, once each; a track the memory let go keeps the journal's words
        // (its title, artist, album and store page), so the history survives a restart.
        var heardIds: [Int] = []
        var heardSeen = Set<Int>()
        for entry in await heardEntries().reversed() {
            guard let id = entry.trackId, heardSeen.insert(id).inserted else { continue }
            heardIds.append(id)
            keep(Self.track(of: entry, id: id))
        }
        var ways = [LibraryReport.Way(.marked, trackIds: marked.compactMap(\.trackId)),
                    LibraryReport.Way(.heard, trackIds: heardIds)]
        // A chart's or a search's track the memory let go is no longer listed.
        ways += recent.ways.map { way in
            var way = way
            way.trackIds = way.trackIds.filter(held.contains)
            return way
        }
        return LibraryReport(ways: ways.filter { !$0.trackIds.isEmpty }, tracks: tracks)
    }

    /// Runs `body` and tells every front-end if what previewd met changed meanwhile: a track came
    /// into the memory or left it, or the chart or a recent search changed.
    func noticingMet<T>(_ body: () async throws -> T) async rethrows -> T {
        let before = (catalog.memory.version, recent)
        defer {
            if catalog.memory.version != before.0 || recent != before.1 { hub?.publish(.library) }
        }
        return try await body()
    }

    /// The shortlist's tracks, from its file the first time after a change.
    func markedTracks() async -> [Track] {
        if let markedCache { return markedCache }
        guard let lists else { return [] }
        let tracks = await StateDisk.run { (try? lists.tracks(.marked)) ?? [] }
        markedCache = tracks
        return tracks
    }

    func heardEntries() async -> [HistoryEntry] {
        guard let history else { return [] }
        return await StateDisk.run { history.recentEntries() }
    }

    /// A track as the history remembers it: enough to list it; adding it looks it up.
    private static func track(of entry: HistoryEntry, id: Int) -> Track {
        var track = Track(trackId: id, trackName: entry.title, artistName: entry.artist, collectionName: entry.album)
        track.wrapperType = "track"
        track.kind = "song"
        track.trackViewUrl = entry.storeUrl
        return track
    }
}
