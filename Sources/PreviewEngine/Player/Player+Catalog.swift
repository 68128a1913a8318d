import PreviewCore

/// Catalog commands: search, lookup, the chart and paging put what they find into the queue;
/// `info` and `share` describe a queue item.
extension Player {
    func search(_ query: CatalogQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.search(query)
        let mayHaveMore = page.album == nil && page.results.count + page.skipped >= query.limit
        let report = try place(page, enqueue, what: query.summary, mayHaveMore: mayHaveMore)
        lastSearch = LastSearch(query: query, enqueue: enqueue, mayHaveMore: mayHaveMore)
        return report
    }

    func lookup(_ query: LookupQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.lookup(query)
        let report = try place(page, enqueue, what: "id \(query.ids.map(String.init).joined(separator: ","))", mayHaveMore: false)
        if !enqueue.append { lastSearch = nil }   // `more` pages searches, not this queue
        return report
    }

    func top(_ query: ChartQuery, _ enqueue: Enqueue) async throws -> CatalogReport {
        let page = try await catalog.topSongs(query)
        let report = try place(page, enqueue, what: "the top-songs chart", mayHaveMore: false)
        if !enqueue.append { lastSearch = nil }
        return report
    }

    /// The next page of the last search, appended; it plays when nothing else does.
    func more() async throws -> CatalogReport {
        guard let last = lastSearch else { throw ControlError(.rejected, "no search to continue; search first") }
        guard last.mayHaveMore else { throw ControlError(.noResults, "no more results for \(last.query.summary)") }
        let query = last.query.nextPage
        var enqueue = last.enqueue
        enqueue.append = true
        enqueue.play = core.transport.currentRequest == nil && last.enqueue.play
        let page = try await catalog.search(query)
        let mayHaveMore = page.results.count + page.skipped >= query.limit
        lastSearch = LastSearch(query: query, enqueue: last.enqueue, mayHaveMore: mayHaveMore)
        return try place(page, enqueue, what: "\(query.summary) from \(query.offset + 1)", mayHaveMore: mayHaveMore)
    }

    /// With `--autopage`: fetches the next page when playback is within two tracks of the end.
    func autopageIfNeeded() {
        guard autopage, autopaging == nil, !isShutDown, let last = lastSearch, last.mayHaveMore,
              let index = core.transport.index, index >= core.queue.count - 2 else { return }
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
        if !isShutDown { publishChanges() }
    }

    /// Sorts `page`, queues its playable tracks (replacing or appending) and reports what happened.
    private func place(_ page: CatalogPage, _ enqueue: Enqueue, what: String, mayHaveMore: Bool) throws -> CatalogReport {
        let results = enqueue.sort?.sorted(page.results) ?? page.results
        guard !results.isEmpty else {
            throw ControlError(.noResults, "no results for \(what)" + (page.skipped > 0 ? " (\(page.skipped) malformed entries skipped)" : ""))
        }
        if page.skipped > 0 { log(.warning, "\(what): skipped \(page.skipped) malformed entries") }
        var notQueued: [CatalogReport.NotQueued] = []
        var playable: [Track] = []
        for (i, track) in results.enumerated() {
            let local = track.previewUrl.flatMap { PreviewURLPolicy.localAddressReason($0, apiOrigin: fetcher.localOrigin) }
            if let reason = track.unplayableReason ?? local { notQueued.append(.init(result: i, reason: reason)) } else { playable.append(track) }
        }
        var first: Int?
        if !playable.isEmpty {
            if enqueue.append {
                first = core.queue.count
                run(try core.append(playable, play: enqueue.play))
            } else {
                lastError = nil
                first = 0
                run(core.replaceQueue(with: playable, play: enqueue.play))
            }
            log(.info, "\(what): \(results.count) results, \(playable.count) queued" + (enqueue.append ? " at \(first ?? 0)" : ""))
        } else {
            log(.info, "\(what): \(results.count) results, none with a playable preview; the queue is unchanged")
        }
        return CatalogReport(results: results, firstQueueIndex: first, notQueued: notQueued, skipped: page.skipped,
                             requests: page.requests, album: page.album, mayHaveMore: mayHaveMore, status: status())
    }

    /// The details of queue item `index` (the current one when nil) and its artist's block.
    func info(_ index: Int?) async throws -> InfoReport {
        guard let i = index ?? core.transport.index else { throw ControlError(.rejected, "nothing is playing; give an index") }
        guard let item = core.queue[safe: i] else {
            throw ControlError(.rejected, "no track at index \(i) (the queue has \(core.queue.count))")
        }
        var artist: Track?
        var artistError: String?
        if let id = item.track.artistId {
            do {
                artist = try await catalog.lookup(LookupQuery(ids: [id], entity: nil)).results.first { $0.wrapperType == "artist" }
                if artist == nil { artistError = "the artist \(id) was not found" }
            } catch {
                artistError = error.message
            }
        }
        return InfoReport(index: i, track: item.track, error: item.failure, artist: artist, artistError: artistError,
                          loudness: loudnessReport(index: i))
    }

    /// The share line for the current track.
    func share() throws -> ShareReport {
        guard let i = core.transport.index, core.transport.currentRequest != nil, let item = core.queue[safe: i] else {
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
