import PreviewCore

/// Catalog commands: search, lookup, the chart and paging put what they find into the queue (or,
/// with `"queue": false`, only answer it); `add` inserts tracks where asked; `info` and `share`
/// describe a queue item.
extension Player {
    func search(_ query: CatalogQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.search(query)
        let mayHaveMore = page.album == nil && page.results.count + page.skipped >= query.limit
        let report = try place(page, enqueue, what: query.summary, mayHaveMore: mayHaveMore, paging: mayHaveMore)
        recent.searched(query.words, page.results)
        let last = LastSearch(query: query, enqueue: enqueue, mayHaveMore: mayHaveMore)
        if enqueue.queue { lastSearch = last } else { lastLook = last }
        return report
    }

    func lookup(_ query: LookupQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.lookup(query)
        let report = try place(page, enqueue, what: "id \(query.ids.map(String.init).joined(separator: ","))", mayHaveMore: false,
                               paging: enqueue.destination == nil ? false : nil)
        if enqueue.queue, enqueue.destination == nil { lastSearch = nil }   // `more` pages searches, not this queue
        return report
    }

    func top(_ query: ChartQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.topSongs(query)
        if let why = page.lookupError { log(.warning, "the top-songs chart: its songs could not be looked up (\(why)); the feed's entries stand") }
        let report = try place(page, enqueue, what: "the top-songs chart", mayHaveMore: false,
                               paging: enqueue.destination == nil ? false : nil)
        recent.charted(query.country ?? catalog.country, page.results)
        if enqueue.queue, enqueue.destination == nil { lastSearch = nil }
        return report
    }

    /// The next page of the last search, appended; it plays when nothing else does. `queue` false:
    /// the next page of the last search that only answered (`lastLook`), answered the same way.
    func more(queue: Bool = true) async throws -> CatalogReport {
        guard let last = queue ? lastSearch : lastLook else {
            throw ControlError(.rejected, queue ? "no search to continue; search first" : "no search with \"queue\": false to continue")
        }
        guard last.mayHaveMore else { throw ControlError(.noResults, "no more results for \(last.query.summary)") }
        let query = last.query.nextPage
        var enqueue = last.enqueue
        enqueue.append = true   // it plays when nothing does once it arrives (the core decides then)
        enqueue.at = nil
        let page = try await catalog.search(query)
        let mayHaveMore = page.results.count + page.skipped >= query.limit
        recent.searched(query.words, page.results, continuing: true)
        let next = LastSearch(query: query, enqueue: last.enqueue, mayHaveMore: mayHaveMore)
        if queue { lastSearch = next } else { lastLook = next }
        // Past the last page: the search had results, there are just no more of them.
        guard !page.results.isEmpty else { throw ControlError(.noResults, "no more results for \(last.query.summary)") }
        return try place(page, enqueue, what: "\(query.summary) from \(query.offset + 1)", mayHaveMore: mayHaveMore, paging: mayHaveMore)
    }

    /// `add`: tracks given, or catalog ids (the track memory, the unknown ones looked up in one
    /// call), inserted where `enqueue` says as one change of the queue. With `queue` false nothing
    /// changes: the answer says what would not be queued, and the ids are remembered.
    func add(_ source: AddSource, _ enqueue: Enqueue) async throws -> AddReport {
        let asked = try await tracks(for: source)
        let tracks = asked.compactMap { $0 }
        let positions = asked.indices.filter { asked[$0] != nil }   // where each found track was asked
        var notQueued = asked.indices.filter { asked[$0] == nil }.map { CatalogReport.NotQueued(result: $0, reason: "not found in the catalog") }
        guard enqueue.queue else {
            notQueued += core.sortOut(tracks).notQueued.map { CatalogReport.NotQueued(result: positions[$0.result], reason: $0.reason) }
            return AddReport(ids: [], queueVersion: core.queue.version, notQueued: notQueued.sorted { $0.result < $1.result })
        }
        // A tap on a result: the queue becomes the list and the track asked for plays, one change.
        let start = try enqueue.start.map { k throws(ControlError) -> Int in
            guard let found = positions.firstIndex(of: k) else {
                throw ControlError(asked.indices.contains(k) ? .rejected : .badArgument,
                                   asked.indices.contains(k) ? "track \(k) to play was not found in the catalog" : "no track \(k) to play (\(asked.count) given)")
            }
            return found
        }
        let placement = try core.place(tracks, at: enqueue.destination, play: enqueue.play, morePages: enqueue.destination == nil ? false : nil,
                                       start: start)
        if enqueue.destination == nil { lastSearch = nil }   // `more` continues no search in this queue
        run(placement.effects)
        notQueued += placement.notQueued.map { CatalogReport.NotQueued(result: positions[$0.result], reason: $0.reason) }
        log(.info, "add: \(placement.ids.count) of \(asked.count) queued" + (placement.firstIndex.map { " at \($0)" } ?? ""))
        return AddReport(ids: placement.ids, queueVersion: core.queue.version, notQueued: notQueued.sorted { $0.result < $1.result })
    }

    /// Fetches the next page of the last search (the core asks, with `--autopage`, when playback
    /// nears the end of the queue).
    func fetchNextPage() {
        guard autopaging == nil, !isShutDown else { return }
        autopaging = Task(executorPreference: loop) { await self.autopage() }
    }

    private func autopage() async {
        do {
            let report = try await noticingMet { try await more() }
            log(.info, "autopage: \(report.results.count) more results")
        } catch {
            log(.info, "autopage stopped: \((error as? ControlError)?.message ?? "\(error)")")
            lastSearch?.mayHaveMore = false
        }
        autopaging = nil
        guard !isShutDown else { return }
        core.pageEnded(morePages: lastSearch?.mayHaveMore ?? false)
        run(core.settleRadio())   // past the last page, radio follows (before the last track ends)
    }

    /// Sorts `page`, has the core queue its playable tracks (replacing or inserting) and reports
    /// what happened; `paging`: whether `more` may follow now (nil: as before). With `queue`
    /// false nothing is queued: the report says which results could be.
    private func place(_ page: CatalogPage, _ enqueue: Enqueue, what: String, mayHaveMore: Bool, paging: Bool?) throws -> CatalogReport {
        let results = enqueue.sort?.sorted(page.results) ?? page.results
        guard !results.isEmpty else {
            throw ControlError(.noResults, "no results for \(what)" + (page.skipped > 0 ? " (\(page.skipped) malformed entries skipped)" : ""))
        }
        if page.skipped > 0 { log(.warning, "\(what): skipped \(page.skipped) malformed entries") }
        var placement = PlayerCore.Placement()
        if enqueue.queue {
            // Where it lands is decided now, against the queue as it is (other clients may have edited it).
            placement = try core.place(results, at: enqueue.destination, play: enqueue.play, morePages: paging)
            run(placement.effects)
            let found = CatalogReport.count(results.count)
            if placement.ids.isEmpty {
                log(.info, "\(what): \(found), none with a playable preview; the queue is unchanged")
            } else {
                log(.info, "\(what): \(found), \(placement.ids.count) queued" + (enqueue.destination != nil ? " at \(placement.firstIndex ?? 0)" : ""))
            }
        } else {
            placement.notQueued = core.sortOut(results).notQueued
            log(.info, "\(what): \(CatalogReport.count(results.count)) (answered, not queued)")
        }
        var report = CatalogReport(results: results, firstQueueIndex: placement.firstIndex, notQueued: placement.notQueued, skipped: page.skipped,
                                   requests: page.requests, album: page.album, mayHaveMore: mayHaveMore, status: status())
        report.ids = placement.ids
        report.queued = enqueue.queue
        run(core.answered(results))   // its first results get heads, whoever asked
        return report
    }

    /// The details of queue item `item` (the current one when nil) and its artist's block.
    func info(_ item: Int?) async throws -> InfoReport {
        guard let id = item ?? core.transport.item, let entry = core.queue[id: id] else {
            throw ControlError(.rejected, "nothing is playing; give an index")
        }
        var artist: Track?
        var artistError: String?
        if let artistId = entry.track.artistId {
            do {
                artist = try await catalog.lookup(LookupQuery(ids: [artistId], entity: nil)).results.first { $0.wrapperType == "artist" }
                if artist == nil { artistError = "the artist \(artistId) was not found" }
            } catch {
                artistError = error.message
            }
        }
        // The queue may have changed while the artist was looked up: the item is named by id.
        return InfoReport(index: core.queue.position(ofID: id) ?? -1, track: entry.track, error: core.queue[id: id]?.failure ?? entry.failure,
                          artist: artist, artistError: artistError, loudness: loudnessReport(item: id))
    }

    /// The share line for the current track.
    func share() throws -> ShareReport {
        guard core.transport.isActive, let item = core.transport.item.flatMap({ core.queue[id: $0] }) else {
            throw ControlError(.rejected, "nothing is playing")
        }
        return ShareReport(track: item.track)
    }
}

/// The last search, for `more` and `--autopage`.
struct LastSearch: Sendable {
    var query: CatalogQuery
    var enqueue: Enqueue
    /// The last page was full, so another may follow.
    var mayHaveMore: Bool
}
