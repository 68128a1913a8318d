import PreviewCore

/// What a command list's adds are checked for before the list changes anything: every
/// `add`/`addid` of a catalog track or a URL is put to the engine as one add that queues nothing
/// (`queue: false`), so the tracks not seen yet are looked up together (one catalog call per 200,
/// never one each: they are then in the track memory when each add runs), and an add that would be
/// refused (an unknown id, a URL the policy refuses) answers the list's `ACK` with its index
/// before any command ran: a `clear` earlier in the list is never left half done.
enum MPDListCheck {
    /// The first add of `lines` the engine would refuse, with its index and name; nil: none.
    static func refusal(_ lines: [[UInt8]], session: MPDSession, engine: EngineHandle) async -> (index: Int, name: String, error: MPDError)? {
        guard session.may(.add) else { return nil }
        var ids: [(index: Int, name: String, id: Int)] = []
        var urls: [(index: Int, name: String, track: Track)] = []
        for (i, line) in lines.enumerated() {
            guard let request = try? MPDRequest(parsing: line), request.name == "add" || request.name == "addid",
                  let uri = request.arguments.first, let target = try? MPDSong.target(uri) else { continue }
            switch target {
            case .track(let id): ids.append((i, request.name, id))
            case .url: urls.append((i, request.name, MPDCommands.urlTrack(uri)))
            case .album, .artist: continue   // their songs are looked up when the add runs
            }
        }
        var refused: [(index: Int, name: String, error: MPDError)] = []
        for start in stride(from: 0, to: ids.count, by: 200) {
            let chunk = Array(ids[start..<min(start + 200, ids.count)])
            switch await dryRun(.trackIds(chunk.map(\.id)), engine) {
            case .success(let notQueued): refused += notQueued.map { (chunk[$0.result].index, chunk[$0.result].name, noSuchSong($0.reason)) }
            case .failure(let error): refused.append((chunk[0].index, chunk[0].name, error))
            }
        }
        if !urls.isEmpty {
            switch await dryRun(.tracks(urls.map(\.track)), engine) {
            case .success(let notQueued): refused += notQueued.map { (urls[$0.result].index, urls[$0.result].name, noSuchSong($0.reason)) }
            case .failure(let error): refused.append((urls[0].index, urls[0].name, error))
            }
        }
        return refused.min { $0.index < $1.index }
    }

    /// What an add of `source` would not queue, the queue left as it is.
    private static func dryRun(_ source: AddSource, _ engine: EngineHandle) async -> Result<[CatalogReport.NotQueued], MPDError> {
        var enqueue = Enqueue(append: true, play: false, at: .end)
        enqueue.queue = false
        do throws(ControlError) {
            guard case .added(let report) = try await engine.perform(.add(source, enqueue)) else { return .success([]) }
            return .success(report.notQueued)
        } catch {
            return .failure(MPDError(error))
        }
    }

    private static func noSuchSong(_ reason: String) -> MPDError { MPDError(.noExist, "No such song: \(reason)") }
}
