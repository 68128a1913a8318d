/// What `previewctl player` shows, laid out for a terminal of a given size: a header with the state,
/// volume and modes; the artwork on the left (when there is room and colour) and the track's
/// details, the position bar and a list on its right (the queue, or the results of a search), with a
/// cursor one browses with (`PlayerScreen+Browse`) and the details of the row under it; a footer with
/// the keys, a message or the search being typed. Pure: the same model and size give the same lines.
public struct PlayerScreen: Sendable {
    /// A picture drawn in half blocks (`HalfBlockImage.lines`), `width` cells wide.
    public struct Picture: Sendable, Equatable {
        public var lines: [String]
        public var width: Int
        public init(lines: [String], width: Int) {
            self.lines = lines
            self.width = width
        }
    }

    /// previewd's status (nil until it answered).
    public var status: StatusReport?
    /// The queue, for the items around the current one.
    public var queue: QueueReport?
    /// The track ids on the shortlist (a ★ beside them).
    public var marked: Set<Int> = []
    /// The current track's artwork, drawn for `artworkColumns`.
    public var artwork: Picture?
    /// The position as the last `position` event (or status) gave it.
    public var positionMs = 0
    public var durationMs: Int?
    /// The search being typed after `/`; nil when not typing.
    public var prompt: String?
    /// A line for the footer (what a key did, or why it could not).
    public var message: String?
    /// The key list instead of the track.
    public var showsHelp = false
    /// Which list is shown and browsed.
    public var view = View.queue
    /// The cursor's queue position; nil: on the current item (it follows playback until moved).
    public var queueCursor: Int?
    /// The results of the last search (`/`), as sorted, the cursor among them, and what was searched.
    public var results: [Track] = []
    public var resultsCursor = 0
    public var resultsTitle = ""
    /// The results' order (nil: the catalog's).
    public var resultsSort: TrackSort?

    /// The lists the cursor browses.
    public enum View: Sendable, Equatable { case queue, results }

    /// An empty screen.
    public init() {}

    /// The widest artwork drawn, in cells, and the narrowest text column kept beside it.
    public static let maxArtworkColumns = 40
    public static let minTextColumns = 30

    /// The artwork's side in cells (its picture is that many pixels square: half as many rows) for a
    /// terminal of `width`×`height`; 0 when there is no room. The artwork shrinks before the text.
    public static func artworkColumns(width: Int, height: Int) -> Int {
        let columns = min(maxArtworkColumns, 2 * (height - 2), width - 2 - minTextColumns) / 2 * 2
        return columns >= 8 ? columns : 0
    }

    /// The keys, as `?` lists them (and `player --help`, the man page and the README): `PlayerKeys.table`.
    public static let keys: [(String, String)] = PlayerKeys.table.map { ($0.spelled, $0.what) }

    /// Exactly `height` lines for a terminal `width` columns wide, none wider (colour and bold
    /// sequences aside).
    public func lines(width: Int, height: Int) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let bodyRows = max(0, height - 2)
        let art = shownArtwork(width: width)
        let textWidth = width - (art.map { $0.width + 2 } ?? 0)
        let text = showsHelp ? helpLines(textWidth, rows: bodyRows) : detailLines(textWidth, rows: bodyRows)
        var body: [String] = []
        for row in 0..<bodyRows {
            var line = ""
            if let art { line = (row < art.lines.count ? art.lines[row] : String(repeating: " ", count: art.width)) + "  " }
            if row < text.count { line += text[row] }
            body.append(line)
        }
        return Array(([header(width)] + body + [footer(width)]).prefix(height))
    }

    // MARK: Parts

    private func header(_ width: Int) -> String {
        guard let s = status else { return DisplayText.fit("previewd: connecting…", width) }
        let symbol = ["playing": "▶", "paused": "⏸", "loading": "…", "stopped": "■", "idle": "·"][s.state.rawValue] ?? ""
        var parts = ["\(symbol) \(s.state.rawValue)"]
        if let index = s.index { parts[0] += " [\(index + 1)/\(s.queueLength)]" }
        parts.append("vol \(s.volume)%" + (s.muted ? " muted" : ""))
        if s.repeat != .off { parts.append("repeat \(s.repeat.rawValue)") }
        if s.shuffle { parts.append("shuffle") }
        if s.single != .off { parts.append(s.single == .on ? "single" : "single once") }
        if s.consume { parts.append("consume") }
        if s.crossfade > 0 { parts.append("crossfade \(s.crossfade) s") }
        if s.marked { parts.append("★ marked") }
        if s.buffering { parts.append("buffering…") }
        return bold(DisplayText.fit(parts.joined(separator: " · "), width))
    }

    private func footer(_ width: Int) -> String {
        // Both may hold text from the network or a paste: nothing in them may steer the terminal.
        if let prompt { return DisplayText.fit("search: " + TerminalText.sanitized(prompt) + "▏", width) }
        if let message { return DisplayText.fit(TerminalText.sanitized(message), width) }
        return dim(DisplayText.fit("space play/pause · ↑↓ Enter play · / search · Tab \(view == .queue ? "results" : "queue") · ? keys · q quit", width))
    }

    /// The artwork drawn at this width, if there is room for it.
    func shownArtwork(width: Int) -> Picture? {
        showsHelp ? nil : artwork.flatMap { $0.width + 2 < width ? $0 : nil }
    }

    /// The track ids of the rows on screen at this size, top to bottom (previewctl tells previewd,
    /// which keeps their first seconds ready: `visible`): the heads follow the cursor.
    public func visibleTrackIds(width: Int, height: Int) -> [Int] {
        guard let area = listArea(width: width, height: height) else { return [] }
        return window(rows: area.rows).compactMap { rowTrack($0)?.trackId }
    }

    /// Where the list is at this size: its first screen row (0 is the header) and its rows; nil
    /// when there is none (the keys shown, nothing to list, no room).
    public func listArea(width: Int, height: Int) -> (firstRow: Int, rows: Int)? {
        guard width > 0, height > 0, !showsHelp, let s = status, listCount > 0 else { return nil }
        let textWidth = width - (shownArtwork(width: width).map { $0.width + 2 } ?? 0)
        let above = trackLines(textWidth, s).count + 1 + (view == .results ? 1 : 0)
        let rows = max(0, height - 2) - above - 2   // the row's details and its reason below the list
        guard rows >= 1 else { return nil }
        return (1 + above, rows)
    }

    /// The track's details, the position bar, what went wrong, then the list to fill `rows` and
    /// the details of the row under the cursor.
    private func detailLines(_ width: Int, rows: Int) -> [String] {
        guard let s = status else { return [] }
        var lines = trackLines(width, s)
        let room = rows - lines.count - 1 - (view == .results ? 1 : 0) - 2
        if listCount > 0, room >= 1 {
            lines.append("")
            if view == .results { lines.append(dim(resultsHeader(width))) }
            let shown = window(rows: room)
            lines += shown.map { view == .queue ? queueLine($0, current: s.index, width: width) : resultLine($0, width: width) }
            lines += Array(repeating: "", count: room - shown.count)
            lines.append(cursorDetail(width))
            lines.append(dim(DisplayText.fit(cursorItem?.reason.map { "  " + TerminalText.sanitized($0.text) } ?? "", width)))
        }
        return lines
    }

    /// The track's details, the position bar, why radio queued it and what went wrong: what comes
    /// above the list.
    private func trackLines(_ width: Int, _ s: StatusReport) -> [String] {
        var lines: [String] = []
        if let t = s.track {
            lines.append(bold(DisplayText.fit(TerminalText.sanitized(t.trackName ?? "Unknown title"), width)))
            for field in [t.artistName, t.collectionName].compactMap({ $0 }) {
                lines.append(DisplayText.fit(TerminalText.sanitized(field), width))
            }
            let facts = [t.releaseDate.map { "released " + String($0.prefix(10)) }, t.primaryGenreName.map(TerminalText.sanitized),
                         Optional(DisplayText.price(t)).flatMap { $0.isEmpty ? nil : $0 }].compactMap { $0 }
            if !facts.isEmpty { lines.append(DisplayText.fit(facts.joined(separator: " · "), width)) }
            if let reason = s.reason { lines.append(DisplayText.fit(TerminalText.sanitized(reason), width)) }
            lines.append("")
            lines.append(PositionBar.text(positionMs: positionMs, durationMs: durationMs, width: width))
        } else {
            lines.append(s.queueLength == 0 ? "Nothing queued: press / to search." : "Nothing playing.")
        }
        if let note = s.radioNote { lines.append(DisplayText.fit(TerminalText.sanitized(note), width)) }
        if let e = s.error { lines.append(DisplayText.fit("error: " + TerminalText.sanitized(e), width)) }
        if s.output != "ok" { lines.append(DisplayText.fit("output: " + TerminalText.sanitized(s.output), width)) }
        return lines
    }

    /// One queue row, numbered from 0 as `queue` and `play N` count: "▶" the current one, "✗" a
    /// failed item, "★" one on the shortlist, "+" one radio queued; the cursor's row reversed.
    private func queueLine(_ i: Int, current: Int?, width: Int) -> String {
        guard let queue else { return "" }
        let item = queue.items[i]
        let digits = String(queue.items.count - 1).count
        let mark = i == current ? "▶" : item.failure != nil ? "✗" : " "
        let number = String(repeating: " ", count: digits - String(i).count) + String(i)
        let name = [item.track.trackName, item.track.artistName].compactMap { $0 }.map(TerminalText.sanitized).joined(separator: " — ")
        let star = item.track.trackId.map(marked.contains) == true ? "★ " : ""
        let radio = item.reason != nil ? "+ " : ""
        let line = DisplayText.fit("\(mark) \(number) \(star)\(radio)\(name)" + (item.failure != nil ? " (failed)" : ""), width)
        if i == cursor { return reversed(DisplayText.padded(line, width)) }
        return i == current ? bold(line) : item.failure != nil ? dim(line) : line
    }

    /// The keys, in one column, or in two when they do not fit the rows.
    private func helpLines(_ width: Int, rows: Int) -> [String] {
        let keyWidth = Self.keys.map { DisplayText.cells($0.0) }.max() ?? 0
        let entries = Self.keys.map { DisplayText.padded($0.0, keyWidth + 2) + $0.1 }
        var lines: [String]
        if entries.count + 3 <= rows {
            lines = entries.map { DisplayText.fit($0, width) }
        } else {
            let half = (entries.count + 1) / 2, column = width / 2
            lines = (0..<half).map { i in
                let left = DisplayText.padded(DisplayText.fit(entries[i], column - 1), column)
                return left + (half + i < entries.count ? DisplayText.fit(entries[half + i], width - column) : "")
            }
        }
        return ["Keys"] + lines + ["", DisplayText.fit("any key closes this", width)]
    }

    func bold(_ text: String) -> String { "\u{1B}[1m" + text + "\u{1B}[0m" }
    func reversed(_ text: String) -> String { "\u{1B}[7m" + text + "\u{1B}[0m" }
    func dim(_ text: String) -> String { "\u{1B}[2m" + text + "\u{1B}[0m" }
}
