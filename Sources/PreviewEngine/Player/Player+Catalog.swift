import PreviewCore

/// Catalog commands: search, lookup, the chart and paging put what they find into the queue;
/// `info` and `share` describe a queue item.
extension Player {
    func search(_ query: CatalogQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.search(query)
        let mayHaveMore = page.album == nil && page.results.count + page.skipped >= query.limit
        let report = try place(page, enqueue, what: query.summary, mayHaveMore: mayHaveMore, paging: mayHaveMore)
        lastSearch = LastSearch(query: query, enqueue: enqueue, mayHaveMore: mayHaveMore)
        return report
    }

    func lookup(_ query: LookupQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.lookup(query)
        let report = try place(page, enqueue, what: "id \(query.ids.map(String.init).joined(separator: ","))", mayHaveMore: false,
                               paging: enqueue.append ? nil : false)
        if !enqueue.append { lastSearch = nil }   // `more` pages searches, not this queue
        return report
    }

    func top(_ query: ChartQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.topSongs(query)
        let report = try place(page, enqueue, what: "the top-songs chart", mayHaveMore: false, paging: enqueue.append ? nil : false)
        if !enqueue.append { lastSearch = nil }
        return report
    }

    /// The next page of the last search, appended; it plays when nothing else does.
    func more() async throws -> CatalogReport {
        guard let last = lastSearch else { throw ControlError(.rejected, "no search to continue; search first") }
        guard last.mayHaveMore else { throw ControlError(.noResults, "no more results for \(last.query.summary)") }
        let query = last.query.nextPage
        var enqueue = last.enqueue
        enqueue.append = true   // it plays when nothing does once it arrives (the core decides then)
        let page = try await catalog.search(query)
        let mayHaveMore = page.results.count + page.skipped >= query.limit
        lastSearch = LastSearch(query: query, enqueue: last.enqueue, mayHaveMore: mayHaveMore)
        return try place(page, enqueue, what: "\(query.summary) from \(query.offset + 1)", mayHaveMore: mayHaveMore, paging: mayHaveMore)
    }

    /// Fetches the next page of the last search (the core asks, with `--autopage`, when playback
    /// nears the end of the queue).
    func fetchNextPage() {
        guard autopaging == nil, !isShutDown else { return }
        autopaging = Task(executorPreference: loop) { await self.autopage() }
    }

    private func autopage() async {
        do {
            let report = try await more()
            log(.info, "autopage: \(report.results.count) more results")
        } catch {
            log(.info, "autopage stopped: \((error as? ControlError)?.message ?? "\(error)")")
            lastSearch?.mayHaveMore = false
        }
        autopaging = nil
        if !isShutDown { core.pageEnded(morePages: lastSearch?.mayHaveMore ?? false) }
    }

    /// Sorts `page`, has the core queue its playable tracks (replacing or appending) and reports
    /// what happened; `paging`: whether `more` may follow now (nil: as before).
    private func place(_ page: CatalogPage, _ enqueue: Enqueue, what: String, mayHaveMore: Bool, paging: Bool?) throws -> CatalogReport {
        let results = enqueue.sort?.sorted(page.results) ?? page.results
        guard !results.isEmpty else {
            throw ControlError(.noResults, "no results for \(what)" + (page.skipped > 0 ? " (\(page.skipped) malformed entries skipped)" : ""))
        }
        if page.skipped > 0 { log(.warning, "\(what): skipped \(page.skipped) malformed entries") }
        // Where it lands is decided now, against the queue as it is (other clients may have edited it).
        let placement = try core.place(results, append: enqueue.append, play: enqueue.play, morePages: paging)
        run(placement.effects)
        if placement.ids.isEmpty {
            log(.info, "\(what): \(results.count) results, none with a playable preview; the queue is unchanged")
        } else {
            log(.info, "\(what): \(results.count) results, \(placement.ids.count) queued" + (enqueue.append ? " at \(placement.firstIndex ?? 0)" : ""))
        }
        return CatalogReport(results: results, firstQueueIndex: placement.firstIndex, notQueued: placement.notQueued, skipped: page.skipped,
                             requests: page.requests, album: page.album, mayHaveMore: mayHaveMore, status: status())
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
