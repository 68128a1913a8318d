#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CPreviewLinux
import Glibc
import PreviewCore

/// `previewctl player`: previewd full screen in a terminal, with a cursor on the queue or on a
/// search's results (`PlayerScreen+Browse`; the keys: `PlayerKeys.table`). One thread sleeps in `poll` on the keys,
/// previewd's events (a subscription with position ticks) and a signalfd (SIGWINCH, SIGINT, SIGTERM,
/// SIGHUP, SIGTSTP); it redraws when one of them says something changed, never on a timer of its own.
/// The terminal is in raw mode on the alternate screen while it runs and is put back on every way
/// out, a crash included (`cpl_terminal_raw`), and while Ctrl-Z has the view stopped.
final class PlayerSession {
    /// Sequences that take the screen and give it back.
    /// Clicks are asked for in the SGR form (`ESC [ < b ; x ; y M`), where the terminal sends them.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J"
    static let leave = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private let client: ControlClient
    private var events: EventStream
    private var screen = PlayerScreen()
    private var size = TerminalSize.current()
    private var decoder = KeyDecoder()
    private let colors = HalfBlockImage.colors(environment: ProcessInfo.processInfo.environment, isTerminal: true)
    /// What the artwork on screen was drawn for: the track and the size asked.
    private var artworkKey: (trackId: Int?, columns: Int)?
    /// The queue items last told to previewd as on screen (`visible`).
    private var shownTrackIds: [Int] = []
    /// The lines on the terminal and the size they were drawn for: only the lines that changed
    /// are written again.
    private var drawn: (lines: [String], columns: Int, rows: Int)?

    /// Subscribes to previewd's events (before the terminal is touched, so a missing daemon is a plain
    /// error message).
    init(socket: String) throws(ControlClient.Failure) {
        client = ControlClient(path: socket, timeoutSeconds: 60)
        events = try client.subscribe(.subscribe(position: true))
    }

    /// Runs until `q`, a signal or the end of previewd's connection; returns the exit status.
    func run() -> Int32 {
        defer { events.close() }
        let signals = cpl_terminal_signalfd()
        guard signals >= 0, cpl_terminal_raw(STDIN_FILENO, Self.leave) == 0 else {
            Output.error("cannot take over the terminal: \(String(cString: strerror(errno)))")
            return 1
        }
        defer { close(signals) }
        Output.write(Self.enter, to: STDOUT_FILENO)
        refresh(queue: true)
        draw()
        var status: Int32?
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: events.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
        while status == nil {
            fds[1].fd = events.fd   // a new one after a suspension
            for i in fds.indices { fds[i].revents = 0 }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { status = 1; break }
            // Signals last: a suspension replaces the subscription that `fds[1]` speaks of.
            if fds[1].revents != 0 { status = eventsArrived() }
            if status == nil, fds[0].revents != 0 { status = keysPressed() }
            if status == nil, fds[2].revents != 0 { status = signalled(signals) }
            draw()
        }
        cpl_terminal_restore()
        if status == ExitStatus.brokenAnswer { Output.error("previewd closed the connection") }
        return status ?? 0
    }

    // MARK: Inputs

    /// SIGWINCH redraws at the new size, SIGTSTP suspends; the others end the view (128 + the signal,
    /// as a shell says).
    private func signalled(_ fd: Int32) -> Int32? {
        while true {
            let signal = cpl_read_signal(fd)
            switch signal {
            case 0: return nil
            case SIGWINCH:
                size = TerminalSize.current()
                drawn = nil
                refreshArtwork()
            case SIGTSTP:
                if let status = suspend() { return status }
            default: return 128 + signal
            }
        }
    }

    /// Ctrl-Z: gives the terminal back and stops, as the shell expects; continued (`fg`), takes the
    /// terminal again. The subscription is made anew: events that piled up meanwhile are stale, and
    /// previewd drops a subscriber that stays behind too long. An exit status when either fails.
    private func suspend() -> Int32? {
        cpl_terminal_restore()
        raise(SIGSTOP)
        guard cpl_terminal_raw(STDIN_FILENO, Self.leave) == 0 else { return 1 }
        Output.write(Self.enter, to: STDOUT_FILENO)
        events.close()
        do { events = try client.subscribe(.subscribe(position: true)) } catch { return ExitStatus.brokenAnswer }
        size = TerminalSize.current()
        artworkKey = nil
        drawn = nil
        refresh(queue: true)
        return nil
    }

    /// Applies previewd's events: a position tick moves the bar; anything else asks for the status
    /// (and the queue or the artwork when they may have changed).
    private func eventsArrived() -> Int32? {
        let lines: [[UInt8]]
        do {
            guard let read = try events.available() else { return ExitStatus.brokenAnswer }
            lines = read
        } catch {
            return ExitStatus.brokenAnswer
        }
        var status = false, queue = false
        for line in lines {
            guard let event = try? JSONDecoder().decode(JSONValue.self, from: Data(line)), case .string(let name)? = event["event"] else { continue }
            switch name {
            case "position":
                screen.positionMs = event["positionMs"]?.intValue ?? screen.positionMs
                screen.durationMs = event["durationMs"]?.intValue ?? screen.durationMs
            case "artwork": artworkKey = nil; status = true
            case "queue", "track", "state", "error": status = true; queue = true
            default: status = true
            }
        }
        if status { refresh(queue: queue) }
        return nil
    }

    private func keysPressed() -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = read(STDIN_FILENO, &bytes, bytes.count)
        guard n > 0 else { return n == 0 ? 0 : (errno == EINTR || errno == EAGAIN ? nil : 1) }
        for key in decoder.keys(from: Array(bytes[..<n])) {
            if let status = handle(key) { return status }
        }
        return nil
    }

    /// What a key does (`PlayerKeys.table`); an exit status when it ends the view.
    private func handle(_ key: Key) -> Int32? {
        if screen.showsHelp {
            screen.showsHelp = false
            return nil
        }
        if let typed = screen.prompt {
            switch key {
            case .character(let c): screen.prompt = typed + String(c)
            case .backspace: screen.prompt = String(typed.dropLast())
            case .escape, .control("c"), .control("g"): screen.prompt = nil
            case .enter:
                screen.prompt = nil
                let term = typed.trimmingWhitespace()
                guard !term.isEmpty else { return nil }
                search(term)
            default: break
            }
            return nil
        }
        screen.message = nil
        let s = screen.status
        let rows = screen.listArea(width: size.columns, height: size.rows)?.rows ?? 1
        if case .mouse(let button, _, let row) = key {
            clicked(button, row: row, rows: rows)
            return nil
        }
        guard let action = PlayerKeys.action(for: key) else { return nil }
        switch action {
        case .quit: return 0
        case .toggle: send(.toggle)
        case .cursorUp: screen.move(.up, rows: rows)
        case .cursorDown: screen.move(.down, rows: rows)
        case .pageUp: screen.move(.pageUp, rows: rows)
        case .pageDown: screen.move(.pageDown, rows: rows)
        case .first: screen.move(.first, rows: rows)
        case .last: screen.move(.last, rows: rows)
        case .playRow: playRow()
        case .removeRow: removeRow()
        case .moveRowDown: moveRow(by: 1)
        case .moveRowUp: moveRow(by: -1)
        case .addResult: addResult()
        case .replaceWithResults: replaceWithResults()
        case .switchView:
            screen.view = screen.view == .queue && !screen.results.isEmpty ? .results : .queue
            if screen.view == .queue, screen.results.isEmpty { screen.message = "no results yet: / searches" }
        case .sortNext, .sortReverse:
            guard screen.view == .results else { screen.message = "sorting is for the results (Tab)"; break }
            screen.sortResults(reverse: action == .sortReverse)
        case .seekBack: send(.seek(.relative(ms: -5_000)))
        case .seekOn: send(.seek(.relative(ms: 5_000)))
        case .next: send(.next)
        case .previous: send(.prev)
        case .volumeUp: send(.volume(.by(5)))
        case .volumeDown: send(.volume(.by(-5)))
        case .mute: send(.mute(nil))
        case .mark:
            send(s?.marked == true ? .unmark(nil) : .mark(nil))
            refresh(queue: true)
        case .shuffle: send(.setShuffle(!(s?.shuffle ?? false)))
        case .cycleRepeat:
            let next: RepeatMode = switch s?.repeat ?? .off { case .off: .all; case .all: .one; case .one: .off }
            send(.setRepeat(next))
        case .search: screen.prompt = ""
        case .open: openStorePage()
        case .help: screen.showsHelp = true
        }
        return nil
    }

    /// A click: on a row, the cursor goes there; on the cursor's row, it plays. The wheel moves it.
    private func clicked(_ button: Int, row: Int, rows: Int) {
        switch button {
        case 64: screen.move(.up, rows: rows)
        case 65: screen.move(.down, rows: rows)
        case 0:
            guard let target = screen.listRow(clickedAt: row, width: size.columns, height: size.rows) else { return }
            if target == screen.cursor { playRow() } else { screen.move(.to(target), rows: rows) }
        default: break
        }
    }

    /// Enter: the queue's row plays (`play --id`, from its head as a tap does); a result is put after
    /// the current track and plays, the rest of the queue kept.
    private func playRow() {
        switch screen.view {
        case .queue:
            guard let item = screen.cursorItem else { return }
            send(.play(.id(item.id)))
            screen.queueCursor = nil   // the cursor follows playback again
        case .results:
            guard let track = screen.rowTrack(screen.cursor) else { return }
            guard let added = addTracks([track], at: .next), let id = added.ids.first else { return }
            send(.play(.id(id)))
        }
    }

    /// `d`: the queue's row leaves the queue.
    private func removeRow() {
        guard let item = screen.cursorItem else { screen.message = "d removes a row of the queue (Tab)"; return }
        send(.remove(.id(item.id)))
        refresh(queue: true)
    }

    /// `J`/`K`: the queue's row moves down or up, the cursor with it.
    private func moveRow(by step: Int) {
        guard let item = screen.cursorItem, let count = screen.queue?.items.count else { screen.message = "J and K move a row of the queue (Tab)"; return }
        let to = screen.cursor + step
        guard (0..<count).contains(to) else { return }
        send(.move(from: .id(item.id), to: .index(to)))
        screen.queueCursor = to
        refresh(queue: true)
    }

    /// `a`: the result under the cursor goes to the end of the queue.
    private func addResult() {
        guard screen.view == .results, let track = screen.rowTrack(screen.cursor) else { screen.message = "a adds a result (/ searches)"; return }
        if addTracks([track], at: .end) != nil { screen.message = "added: " + (track.trackName ?? "the track") }
    }

    /// `R`: the results replace the queue, the row under the cursor playing.
    private func replaceWithResults() {
        guard screen.view == .results, !screen.results.isEmpty else { screen.message = "R replaces the queue with the results (/ searches)"; return }
        var enqueue = Enqueue()
        enqueue.start = screen.cursor
        _ = addTracks(screen.results, enqueue)
        screen.view = .queue
        screen.queueCursor = nil
    }

    private func addTracks(_ tracks: [Track], at position: InsertPosition) -> AddReport? {
        addTracks(tracks, Enqueue(play: false, at: position))
    }

    private func addTracks(_ tracks: [Track], _ enqueue: Enqueue) -> AddReport? {
        do {
            let response = try client.send(.add(.tracks(tracks), enqueue))
            screen.message = response.ok ? nil : response.error?.message
            let report = try? response.result?.decode(as: AddReport.self)
            refresh(queue: true)
            return report
        } catch {
            screen.message = "previewd did not answer"
            return nil
        }
    }

    /// `/` then Enter: the search's results in the results view; the queue is not touched.
    private func search(_ term: String) {
        screen.message = "searching “\(term)”…"
        draw()
        do {
            let response = try client.send(.search(CatalogQuery(term: term), Enqueue(queue: false)))
            guard response.ok, let report = try? response.result?.decode(as: CatalogReport.self) else {
                screen.message = response.error?.message ?? "no results for “\(term)”"
                return
            }
            screen.message = nil
            screen.results = screen.resultsSort.map { $0.sorted(report.results) } ?? report.results
            screen.resultsCursor = 0
            screen.resultsTitle = term
            screen.view = .results
        } catch {
            screen.message = "previewd did not answer"
        }
    }

    // MARK: previewd

    /// Sends a command; its effects come back as events. A refusal is shown in the footer. A status
    /// in the answer is kept at once: the next key of the same read (`r r`, `s s`) counts from the
    /// state this one made, not from the one the events have not told yet.
    private func send(_ command: ControlCommand) {
        do {
            let response = try client.send(command)
            screen.message = response.ok ? nil : response.error?.message
            if let status = try? response.result?.decode(as: StatusReport.self) { screen.status = status }
        } catch {
            screen.message = "previewd did not answer"
        }
    }

    /// Asks for the status (and the queue), then the artwork if the track or the room for it changed.
    private func refresh(queue: Bool) {
        if let s = try? client.send(.status, as: Invocation.TypedResponse<StatusReport>.self).result {
            screen.status = s
            screen.positionMs = s.positionMs
            screen.durationMs = s.durationMs
        }
        if queue, let q = try? client.send(.queue(since: nil), as: Invocation.TypedResponse<QueueReport>.self).result {
            screen.queue = q
            let marked = try? client.send(.lists(.marked), as: Invocation.TypedResponse<ListReport>.self).result
            screen.marked = Set(marked?.tracks?.compactMap(\.trackId) ?? [])
        }
        refreshArtwork()
    }

    /// Fetches the current track's artwork at the size the screen gives it, when that changed.
    private func refreshArtwork() {
        let columns = colors == nil ? 0 : PlayerScreen.artworkColumns(width: size.columns, height: size.rows)
        let trackId = screen.status?.track?.trackId
        guard artworkKey == nil || artworkKey! != (trackId, columns) else { return }
        artworkKey = (trackId, columns)
        screen.artwork = nil
        guard let colors, columns > 0, screen.status?.track != nil,
              let image = try? client.send(.artwork(nil, width: columns, height: columns),
                                           as: Invocation.TypedResponse<ArtworkReport>.self).result else { return }
        screen.artwork = PlayerScreen.Picture(lines: HalfBlockImage.lines(image, colors: colors), width: image.width)
    }

    private func openStorePage() {
        guard let url = screen.rowTrack(screen.cursor)?.trackViewUrl ?? screen.status?.track?.trackViewUrl else {
            screen.message = "this track has no store page"
            return
        }
        switch StorePage.open(url, quiet: true) {
        case .opened(let program): screen.message = "opened with \(program): \(url)"
        case .noBrowser: screen.message = url
        case .failed(let why): screen.message = why
        }
    }

    // MARK: Output

    /// Writes what changed since the last draw in one write: the lines that differ, each cleared to
    /// its end; after a resize (or at first) the whole screen, then the rest below cleared, so a
    /// smaller size or a shorter line leaves nothing behind. Nothing changed: nothing is written.
    private func draw() {
        let lines = screen.lines(width: size.columns, height: size.rows)
        let visible = screen.visibleTrackIds(width: size.columns, height: size.rows)
        if visible != shownTrackIds, !visible.isEmpty {   // what the screen shows changed: previewd keeps their heads
            shownTrackIds = visible
            _ = try? client.send(.visible(Array(visible.prefix(200))))
        }
        defer { drawn = (lines, size.columns, size.rows) }
        guard let drawn, drawn.columns == size.columns, drawn.rows == size.rows, drawn.lines.count == lines.count else {
            Output.write("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J", to: STDOUT_FILENO)
            return
        }
        var out = ""
        for (row, line) in lines.enumerated() where line != drawn.lines[row] {
            out += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
        }
        if !out.isEmpty { Output.write(out, to: STDOUT_FILENO) }
    }
}
