/// Every verb of the control socket, sorted by name, in one table (MPD's src/command/AllCommands.cxx):
/// `ControlCommand.init(_:)` parses through it and previewd-web's allow-list is its `.web` rows.
/// What each verb does is `Player.handle`'s; `docs/PROTOCOL.md` shows each on the wire.
extension ControlVerb {
    /// The table, sorted by name: name, who may send it, whether it changes anything, its parser.
    public static let all: [ControlVerb] = [
        ControlVerb(.add, .web, .changes, ControlCommand.add(args:)),
        ControlVerb(.artwork, .local, .reads, ControlCommand.artwork(args:)),
        ControlVerb(.audio, .local, .reads, ControlCommand.audio(args:)),
        ControlVerb(.clear, .web, .changes) { _ in .clear },
        ControlVerb(.clearerror, .local, .changes) { _ in .clearError },
        ControlVerb(.consume, .web, .changes, ControlCommand.consume(args:)),
        ControlVerb(.crossfade, .local, .changes, ControlCommand.crossfade(args:)),
        ControlVerb(.forget, .local, .changes, ControlCommand.forget(args:)),
        ControlVerb(.hello, .local, .reads) { _ in .hello },
        ControlVerb(.history, .web, .reads, ControlCommand.history(args:)),
        ControlVerb(.info, .web, .reads, ControlCommand.info(args:)),
        ControlVerb(.library, .local, .reads) { _ in .library },
        ControlVerb(.listadd, .local, .changes, ControlCommand.listAdd(args:)),
        ControlVerb(.listmove, .local, .changes, ControlCommand.listMove(args:)),
        ControlVerb(.listremove, .local, .changes, ControlCommand.listRemove(args:)),
        ControlVerb(.lists, .web, .reads, ControlCommand.lists(args:)),
        ControlVerb(.load, .web, .changes, ControlCommand.load(args:)),
        ControlVerb(.lookup, .web, .changes, ControlCommand.lookup(args:)),
        ControlVerb(.mark, .web, .changes, ControlCommand.mark(args:)),
        ControlVerb(.memory, .local, .reads) { _ in .memory },
        ControlVerb(.more, .web, .changes, ControlCommand.more(args:)),
        ControlVerb(.move, .web, .changes, ControlCommand.move(args:)),
        ControlVerb(.mute, .web, .changes, ControlCommand.mute(args:)),
        ControlVerb(.next, .web, .changes) { _ in .next },
        ControlVerb(.normalize, .local, .changes, ControlCommand.normalize(args:)),
        ControlVerb(.output, .web, .changes, ControlCommand.output(args:)),
        ControlVerb(.pause, .web, .changes) { _ in .pause },
        ControlVerb(.play, .web, .changes, ControlCommand.play(args:)),
        ControlVerb(.playhere, .web, .changes, ControlCommand.playHere(args:)),
        ControlVerb(.prev, .web, .changes) { _ in .prev },
        ControlVerb(.priority, .local, .changes, ControlCommand.priority(args:)),
        ControlVerb(.queue, .web, .reads, ControlCommand.queue(args:)),
        ControlVerb(.radio, .web, .changes, ControlCommand.radio(args:)),
        ControlVerb(.remove, .web, .changes, ControlCommand.remove(args:)),
        ControlVerb(.rename, .local, .changes, ControlCommand.rename(args:)),
        ControlVerb(.repeat, .web, .changes, ControlCommand.repeat(args:)),
        ControlVerb(.resume, .web, .changes) { _ in .resume },
        ControlVerb(.save, .web, .changes, ControlCommand.save(args:)),
        ControlVerb(.search, .web, .changes, ControlCommand.search(args:)),
        ControlVerb(.seek, .web, .changes, ControlCommand.seek(args:)),
        ControlVerb(.share, .web, .reads) { _ in .share },
        ControlVerb(.shuffle, .web, .changes, ControlCommand.shuffle(args:)),
        ControlVerb(.shufflequeue, .local, .changes, ControlCommand.shuffleQueue(args:)),
        ControlVerb(.single, .web, .changes, ControlCommand.single(args:)),
        ControlVerb(.status, .web, .reads) { _ in .status },
        ControlVerb(.stop, .web, .changes) { _ in .stop },
        ControlVerb(.subscribe, .local, .reads, ControlCommand.subscribe(args:)),
        ControlVerb(.swap, .local, .changes, ControlCommand.swap(args:)),
        ControlVerb(.toggle, .web, .changes) { _ in .toggle },
        ControlVerb(.top, .web, .changes, ControlCommand.top(args:)),
        ControlVerb(.unmark, .web, .changes, ControlCommand.unmark(args:)),
        ControlVerb(.visible, .web, .changes, ControlCommand.visible(args:)),
        ControlVerb(.volume, .web, .changes, ControlCommand.volume(args:)),
    ]

    /// The verbs' names on the wire, each written once: the request writer (`request(id:)`) uses
    /// these too. Every one has exactly one row in `all` (ControlVerbTests).
    public enum Name: String, CaseIterable, Sendable {
        case add, artwork, audio, clear, clearerror, consume, crossfade, forget, hello, history, info, library, listadd, listmove, listremove,
             lists, load, lookup, mark, memory, more, move, mute, next, normalize, output, pause, play, playhere, prev, priority, queue,
             radio, remove, rename, `repeat`, resume, save, search, seek, share, shuffle, shufflequeue, single, status, stop, subscribe,
             swap, toggle, top, unmark, visible, volume
    }

    private static let byName: [String: ControlVerb] = Dictionary(uniqueKeysWithValues: all.map { ($0.name.rawValue, $0) })

    /// The verb a request's `cmd` names, or nil.
    public static func named(_ name: String) -> ControlVerb? { byName[name] }
}
