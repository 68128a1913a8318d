/// Browsing in `previewctl player`: a cursor on the queue or on a search's results, moved by keys
/// and clicks, the window of rows kept around it, the results' table and sort, and the details of
/// the row under it. Pure, as the rest of the screen.
extension PlayerScreen {
    /// How a key moves the cursor.
    public enum CursorMove: Sendable, Equatable {
        case up, down, pageUp, pageDown, first, last
        /// To this row of the list (a click).
        case to(Int)
    }

    /// The rows of the list shown.
    public var listCount: Int { view == .queue ? queue?.items.count ?? 0 : results.count }

    /// The cursor's row in the list shown (in the queue: the current item until it is moved).
    public var cursor: Int {
        guard listCount > 0 else { return 0 }
        let row = view == .queue ? queueCursor ?? status?.index ?? 0 : resultsCursor
        return min(max(0, row), listCount - 1)
    }

    /// The track of row `i` of the list shown.
    public func rowTrack(_ i: Int) -> Track? {
        switch view {
        case .queue: return queue?.items.indices.contains(i) == true ? queue?.items[i].track : nil
        case .results: return results.indices.contains(i) ? results[i] : nil
        }
    }

    /// The queue item under the cursor, when the queue is shown.
    public var cursorItem: QueueItem? {
        guard view == .queue, let queue, queue.items.indices.contains(cursor) else { return nil }
        return queue.items[cursor]
    }

    /// Moves the cursor; a page is `rows` rows (the list's height on screen).
    public mutating func move(_ move: CursorMove, rows: Int) {
        guard listCount > 0 else { return }
        let page = max(1, rows - 1)
        let to: Int
        switch move {
        case .up: to = cursor - 1
        case .down: to = cursor + 1
        case .pageUp: to = cursor - page
        case .pageDown: to = cursor + page
        case .first: to = 0
        case .last: to = listCount - 1
        case .to(let row): to = row
        }
        let row = min(max(0, to), listCount - 1)
        if view == .queue { queueCursor = row } else { resultsCursor = row }
    }

    /// The row a click on screen row `row` (1-based, as the terminal counts) lands on, if any.
    public func listRow(clickedAt row: Int, width: Int, height: Int) -> Int? {
        guard let area = listArea(width: width, height: height) else { return nil }
        let shown = window(rows: area.rows)
        let offset = row - 1 - area.firstRow
        return (0..<shown.count).contains(offset) ? shown.lowerBound + offset : nil
    }

    /// The rows shown in `rows`: the cursor in the middle where it can be.
    func window(rows: Int) -> Range<Int> {
        let count = listCount
        let shown = min(rows, count)
        let first = max(0, min(count - shown, cursor - shown / 2))
        return first..<first + shown
    }

    /// The results in a new order: the next column (`reverse` false), or the same reversed.
    public mutating func sortResults(reverse: Bool) {
        let keys = Self.sortKeys
        if reverse {
            guard var sort = resultsSort else { return }
            sort.descending.toggle()
            resultsSort = sort
        } else {
            let next = resultsSort.flatMap { keys.firstIndex(of: $0.key) }.map { (keys.index(after: $0)) % keys.count } ?? 0
            resultsSort = TrackSort(keys[next])
        }
        let chosen = rowTrack(resultsCursor)?.trackId
        results = resultsSort!.sorted(results)
        resultsCursor = results.firstIndex { $0.trackId == chosen } ?? 0   // the cursor stays on its track
    }

    /// The columns `c` steps through, in the table's order.
    static let sortKeys: [TrackSort.Key] = [.title, .artist, .released, .duration, .genre, .price]

    /// The results' table columns that fit `width`: title, artist, album, released, duration, genre, price.
    private func columns(_ width: Int) -> [(name: String, width: Int, key: TrackSort.Key?)] {
        var fixed: [(String, Int, TrackSort.Key?)] = [("released", 10, .released), ("time", 5, .duration), ("genre", 10, .genre), ("price", 9, .price)]
        func taken() -> Int { fixed.reduce(0) { $0 + $1.1 + 1 } }
        while !fixed.isEmpty, width - 2 - taken() < 48 { fixed.removeLast() }   // the names keep room first
        let rest = width - 2 - taken()
        let title = max(8, rest * 4 / 10), artist = max(6, rest * 3 / 10), album = max(0, rest - title - artist - 2)
        var all: [(name: String, width: Int, key: TrackSort.Key?)] = [("title", title, .title), ("artist", artist, .artist)]
        if album >= 6 { all.append(("album", album, nil)) }
        return all + fixed.map { (name: $0.0, width: $0.1, key: $0.2) }
    }

    /// The results' column names, the sorted one marked ▲ or ▼.
    func resultsHeader(_ width: Int) -> String {
        let cells = columns(width).map { column in
            let arrow = column.key != nil && column.key == resultsSort?.key ? (resultsSort!.descending ? "▼" : "▲") : ""
            return DisplayText.padded(DisplayText.fit(column.name + arrow, column.width), column.width)
        }
        return DisplayText.fit("  " + cells.joined(separator: " ") + (resultsTitle.isEmpty ? "" : "  “\(TerminalText.sanitized(resultsTitle))”"), width)
    }

    /// One result row as a table row; the cursor's reversed.
    func resultLine(_ i: Int, width: Int) -> String {
        let t = results[i]
        let values: [String] = columns(width).map { column in
            switch column.name {
            case "title": return t.trackName ?? t.collectionName ?? ""
            case "artist": return t.artistName ?? ""
            case "album": return t.collectionName ?? ""
            case "released": return String((t.releaseDate ?? "").prefix(10))
            case "time": return t.trackTimeMillis.map { DisplayText.clock($0) } ?? ""
            case "genre": return t.primaryGenreName ?? ""
            default: return DisplayText.price(t)
            }
        }
        let cells = zip(values, columns(width)).map { value, column in
            DisplayText.padded(DisplayText.fit(TerminalText.sanitized(value), column.width), column.width, alignedRight: column.name == "time" || column.name == "price")
        }
        let mark = t.trackId.map(marked.contains) == true ? "★ " : "  "
        let line = DisplayText.fit(mark + cells.joined(separator: " "), width)
        return i == cursor ? reversed(DisplayText.padded(line, width)) : line
    }

    /// The details of the row under the cursor: title, artist, album, release date, duration,
    /// genre, price (why radio queued it goes on the line below).
    func cursorDetail(_ width: Int) -> String {
        guard let t = rowTrack(cursor) else { return "" }
        var parts = [[t.trackName ?? t.collectionName, t.artistName, t.collectionName].compactMap { $0 }.joined(separator: " — ")]
        if let date = t.releaseDate { parts.append(String(date.prefix(10))) }
        if let ms = t.trackTimeMillis { parts.append(DisplayText.clock(ms)) }
        if let genre = t.primaryGenreName { parts.append(genre) }
        let price = DisplayText.price(t)
        if !price.isEmpty { parts.append(price) }
        return dim(DisplayText.fit("▸ " + TerminalText.sanitized(parts.joined(separator: " · ")), width))
    }
}
