import PreviewCore

/// Saved lists, the shortlist and the history: their files are read and written on the state
/// thread (`StateDisk`); what goes into the queue goes through the core like any add.
extension Player {
    /// Runs `body` on the list store, on the state thread.
    private func onLists<T: Sendable>(_ body: @escaping @Sendable (ListStore) throws -> T) async throws(ControlError) -> T {
        guard let lists else { throw ControlError(.rejected, "saved lists are off (no data folder)") }
        let result = await StateDisk.run { Result { try body(lists) } }
        do { return try result.get() } catch { throw error as? ControlError ?? ControlError(.internal, "\(error)") }
    }

    func listCommand(_ command: ControlCommand) async throws -> ControlResult {
        let result = try await listCommandResult(command)
        switch command {
        case .save, .forget, .rename, .listAdd, .listMove, .listRemove, .mark, .unmark:
            markedCache = nil   // the shortlist may have changed: `library` reads it again
            hub?.publish(.lists)   // every front-end hears it
        default: break
        }
        return result
    }

    private func listCommandResult(_ command: ControlCommand) async throws -> ControlResult {
        switch command {
        case .save(let name, let mode):
            let tracks = core.queue.items.map(\.track)
            let count = try await onLists { try $0.save(name, tracks, mode: mode) }
            log(.info, "saved \(tracks.count) tracks as the list \"\(name)\"")
            return .list(ListReport(name: name.description, count: count))
        case .load(let name, let enqueue):
            let tracks = try await onLists { try $0.tracks(name) }
            catalog.memory.remember(tracks)
            guard !tracks.isEmpty else { throw ControlError(.rejected, "the list \"\(name)\" is empty") }
            let placement = try core.place(tracks, at: enqueue.destination, play: enqueue.play, morePages: enqueue.destination == nil ? false : nil)
            if enqueue.destination == nil { lastSearch = nil }   // `more` pages searches, not a list
            run(placement.effects)
            log(.info, "loaded the list \"\(name)\": \(placement.ids.count) of \(tracks.count) queued")
            return .added(AddReport(ids: placement.ids, queueVersion: core.queue.version, notQueued: placement.notQueued))
        case .lists(nil):
            return .lists(ListsReport(lists: try await onLists { $0.summaries() }))
        case .lists(let name?):
            let tracks = try await onLists { try $0.tracks(name) }
            catalog.memory.remember(tracks)
            return .list(ListReport(name: name.description, count: tracks.count, tracks: tracks))
        case .forget(let name):
            return .lists(ListsReport(lists: try await onLists { try $0.forget(name); return $0.summaries() }))
        case .rename(let name, let new):
            return .lists(ListsReport(lists: try await onLists { try $0.rename(name, to: new); return $0.summaries() }))
        case .listAdd(let name, let source):
            let tracks = try await tracks(for: source).compactMap { $0 }
            let count = try await onLists { try $0.save(name, tracks, mode: .append) }
            return .list(ListReport(name: name.description, count: count))
        case .listMove(let name, let from, let to):
            return .list(ListReport(name: name.description, count: try await onLists { try $0.move(in: name, from: from, to: to) }))
        case .listRemove(let name, let index):
            return .list(ListReport(name: name.description, count: try await onLists { try $0.remove(from: name, at: index) }))
        case .mark(let ref), .unmark(let ref):
            guard let id = try ref.map({ ref throws(ControlError) in try core.queue.id(of: ref) }) ?? core.transport.item,
                  let track = core.queue[id: id]?.track else { throw ControlError(.rejected, "nothing is playing; give an index") }
            guard let trackId = track.trackId else { throw ControlError(.rejected, "the track has no iTunes id") }
            let marking: Bool
            if case .mark = command { marking = true } else { marking = false }
            if marking {
                try await onLists { if !$0.isMarked(trackId) { try $0.save(.marked, [track], mode: .append) } }
            } else {
                try await onLists { try $0.remove(trackId: trackId, from: .marked) }
            }
            // About the track named, not the current one (`mark 3` while 0 plays).
            return .mark(MarkReport(index: core.queue.position(ofID: id) ?? 0, id: id, track: track, marked: marking))
        case .history(let limit):
            guard let history else { throw ControlError(.rejected, "the history is off (--no-state)") }
            return .history(HistoryReport(entries: await StateDisk.run { history.entries(limit: limit) }))
        default:
            throw ControlError(.internal, "not a list command")
        }
    }

    /// The tracks `source` names, in order: given (and remembered), or from the track memory with
    /// the unknown ones looked up in one call (nil where the catalog does not know an id).
    func tracks(for source: AddSource) async throws -> [Track?] {
        switch source {
        case .tracks(let tracks):
            catalog.memory.remember(tracks)
            return tracks
        case .trackIds(let ids):
            let found = try await catalog.tracks(ids)
            return ids.map { found[$0] }
        }
    }
}
