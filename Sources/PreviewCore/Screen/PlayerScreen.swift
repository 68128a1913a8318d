/// What `previewctl player` shows, laid out for a terminal of a given size: a header with the state,
/// volume and modes; the artwork on the left (when there is room and colour) and the track's
/// details, the position bar and the queue around the current item on its right; a footer with the
/// keys, a message or the search being typed. Pure: the same model and size give the same lines.
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

    /// The keys, as `?` lists them.
    public static let keys: [(String, String)] = [
        ("space", "play / pause"), ("n  →", "next"), ("p  ←", "previous"), ("+  -", "volume"), ("m", "mark / unmark (the shortlist)"), ("M", "mute"),
        ("s", "shuffle"), ("r", "repeat: off → all → one"), ("/", "search (Enter replaces the queue)"),
        ("o", "open the store page"), ("?", "these keys"), ("q", "quit"),
    ]

    /// Exactly `height` lines for a terminal `width` columns wide, none wider (colour and bold
    /// sequences aside).
    public func lines(width: Int, height: Int) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let bodyRows = max(0, height - 2)
        let art = shownArtwork(width: width)
        let textWidth = width - (art.map { $0.width + 2 } ?? 0)
        let text = showsHelp ? helpLines(textWidth) : detailLines(textWidth, rows: bodyRows)
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
        return dim(DisplayText.fit("space play/pause · n next · p prev · / search · o store · ? keys · q quit", width))
    }

    /// The artwork drawn at this width, if there is room for it.
    private func shownArtwork(width: Int) -> Picture? {
        showsHelp ? nil : artwork.flatMap { $0.width + 2 < width ? $0 : nil }
    }

    /// The track ids of the queue items on screen at this size, top to bottom (previewctl tells
    /// previewd, which keeps their first seconds ready: `visible`).
    public func visibleTrackIds(width: Int, height: Int) -> [Int] {
        guard width > 0, height > 0, !showsHelp, let s = status, let queue, !queue.items.isEmpty else { return [] }
        let textWidth = width - (shownArtwork(width: width).map { $0.width + 2 } ?? 0)
        let room = max(0, height - 2) - trackLines(textWidth, s).count - 1
        guard room >= 1 else { return [] }
        return Self.queueWindow(count: queue.items.count, current: s.index, rows: room).compactMap { queue.items[$0].track.trackId }
    }

    /// The track's details, the position bar, what went wrong, then the queue to fill `rows`.
    private func detailLines(_ width: Int, rows: Int) -> [String] {
        guard let s = status else { return [] }
        var lines = trackLines(width, s)
        let room = rows - lines.count - 1
        if let queue, !queue.items.isEmpty, room >= 1 {
            lines.append("")
            lines += queueLines(queue, current: s.index, rows: room, width: width)
        }
        return lines
    }

    /// The track's details, the position bar and what went wrong: what comes above the queue.
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
            lines.append("")
            lines.append(PositionBar.text(positionMs: positionMs, durationMs: durationMs, width: width))
        } else {
            lines.append(s.queueLength == 0 ? "Nothing queued: press / to search." : "Nothing playing.")
        }
        if let e = s.error { lines.append(DisplayText.fit("error: " + TerminalText.sanitized(e), width)) }
        if s.output != "ok" { lines.append(DisplayText.fit("output: " + TerminalText.sanitized(s.output), width)) }
        return lines
    }

    /// The queue positions shown in `rows`: the current item in the middle where it can be.
    private static func queueWindow(count: Int, current: Int?, rows: Int) -> Range<Int> {
        let shown = min(rows, count)
        let first = max(0, min(count - shown, (current ?? 0) - shown / 2))
        return first..<first + shown
    }

    /// Up to `rows` items around the current one, numbered from 0 as `queue` and `play N` count:
    /// "▶" marks the current one, "✗" a failed item, "★" one on the shortlist.
    private func queueLines(_ queue: QueueReport, current: Int?, rows: Int, width: Int) -> [String] {
        let count = queue.items.count
        let digits = String(count - 1).count
        return Self.queueWindow(count: count, current: current, rows: rows).map { i in
            let item = queue.items[i]
            let mark = i == current ? "▶" : item.failure != nil ? "✗" : " "
            let number = String(repeating: " ", count: digits - String(i).count) + String(i)
            let name = [item.track.trackName, item.track.artistName].compactMap { $0 }.map(TerminalText.sanitized).joined(separator: " — ")
            let star = item.track.trackId.map(marked.contains) == true ? "★ " : ""
            let line = DisplayText.fit("\(mark) \(number) \(star)\(name)" + (item.failure != nil ? " (failed)" : ""), width)
            return i == current ? bold(line) : item.failure != nil ? dim(line) : line
        }
    }

    private func helpLines(_ width: Int) -> [String] {
        ["Keys"] + Self.keys.map { DisplayText.fit(DisplayText.padded($0.0, 7) + $0.1, width) } + ["", DisplayText.fit("any key closes this", width)]
    }

    private func bold(_ text: String) -> String { "\u{1B}[1m" + text + "\u{1B}[0m" }
    private func dim(_ text: String) -> String { "\u{1B}[2m" + text + "\u{1B}[0m" }
}
