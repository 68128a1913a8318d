import PreviewCore

/// Radio's calls: the core asks for a batch when the queue is about to end (`PlayerCore+Radio`);
/// here its input is gathered (the core's, the shortlist, the recent history, the track memory),
/// the picker's calls are made through the catalog client (its rate governor and response cache,
/// the storefront's country), and the result goes back to the core, which appends it. Nothing here
/// runs while radio is off: the core asks for no batch.
extension Player {
    /// Turns radio on or off (`skips`: given back by the state keeper after a restart).
    func setRadio(_ on: Bool, skips: [String: Int]?) {
        if let skips { core.restoreRadioSkips(skips) }
        run(core.setRadio(on))
        log(.info, "radio \(on ? "on" : "off")")
    }

    /// Starts the batch the core asked for.
    func fetchRadio() {
        guard radioBatch == nil, !isShutDown else { return }
        radioBatch = Task(executorPreference: loop) { await self.chooseRadioBatch() }
    }

    private func chooseRadioBatch() async {
        var input = core.radioInput()
        input.marked = await markedTracks().reversed()   // the shortlist's newest last
        let heard = await heardEntries().suffix(RadioState.historyWindow)
        input.excluded.formUnion(heard.compactMap(\.trackId))
        // The history's tracks the memory still holds become played seeds after the queue's.
        let known = catalog.memory.tracks(heard.reversed().compactMap(\.trackId))
        var seen = Set(input.played.compactMap(\.trackId))
        for entry in heard.reversed() {
            guard let id = entry.trackId, let track = known[id], seen.insert(id).inserted else { continue }
            input.played.append(track)
            if input.played.count >= 50 { break }
        }
        input.memory = catalog.memory.snapshot.tracks
        var picker = RadioPicker(input)
        while let call = picker.nextCall() {
            do {
                let page = try await noticingMet { try await radioCall(call) }
                picker.answered(call, tracks: page.results)
            } catch {
                let why = (error as? CatalogError)?.message ?? "\(error)"
                log(.info, "radio: \(Self.describe(call)) failed: \(why)")
                picker.failed(call, why)
            }
        }
        let result = picker.result
        radioBatch = nil
        guard !isShutDown else { return }
        run(core.radioEnded(result))
        let calls = result.calls.map(Self.describe).joined(separator: ", ")
        log(.info, "radio: \(result.picks.count) queued with \(result.calls.count) calls\(calls.isEmpty ? "" : " (\(calls))")"
            + (core.radio.note.map { "; \($0)" } ?? ""))
    }

    /// One call of a batch, in the daemon's storefront.
    private func radioCall(_ call: RadioLead.Call) async throws -> CatalogPage {
        switch call {
        case .artistSongs(let id), .albumSongs(let id):
            return try await catalog.lookup(LookupQuery(ids: [id], entity: "song", limit: 50))
        case .genreChart(let genre):
            let page = try await catalog.topSongs(ChartQuery(limit: 50, genre: genre), lookingUp: false)   // one call: the memory fills in what it knows
            recent.charted(catalog.country, page.results)
            return page
        }
    }

    private static func describe(_ call: RadioLead.Call) -> String {
        switch call {
        case .artistSongs(let id): return "artist \(id)'s songs"
        case .albumSongs(let id): return "album \(id)'s songs"
        case .genreChart(let id): return "genre \(id)'s chart"
        }
    }
}
