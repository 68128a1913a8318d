import Glibc
import PreviewCore

/// How previewctl writes: results to stdout, errors to stderr, names from the API made terminal-safe.
enum Output {
    static func print(_ text: String) {
        guard !text.isEmpty else { return }
        write(text + "\n", to: STDOUT_FILENO)
    }

    static func error(_ text: String) {
        write("previewctl: \(TerminalText.sanitized(text))\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to `fd` (stdout may be a pipe that takes it in parts).
    static func write(_ text: String, to fd: Int32) {
        write(bytes: Array(text.utf8), to: fd)
    }

    /// Writes all of `data` to `fd`.
    static func write(bytes data: [UInt8], to fd: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// `value` as one line of JSON, with characters a terminal would act on escaped.
    static func json(_ value: JSONValue) -> String {
        JSONLine.encode(value).map { TerminalText.escapedJSON(String(decoding: $0.dropLast(), as: UTF8.self)) } ?? "null"
    }

    /// `previewctl outputs`: a line per output: id, on/off, MPD's plugin name, name; `*` marks the clock.
    static func outputs(_ s: StatusReport) -> String {
        s.outputs.map { o in
            "\(o.clock ? "*" : " ") \(o.id)  \(o.enabled ? "on " : "off")  \(o.plugin + String(repeating: " ", count: max(0, 8 - o.plugin.count)))  \(TerminalText.sanitized(o.name))"
        }.joined(separator: "\n")
    }

    /// The human form of a status report.
    static func status(_ s: StatusReport) -> String {
        let symbol = ["playing": "▶", "paused": "⏸", "loading": "…", "stopped": "■", "idle": "·"][s.state.rawValue] ?? ""
        var lines: [String] = []
        var head = "\(symbol) \(s.state.rawValue)"
        if let index = s.index { head += "  [\(index + 1)/\(s.queueLength)]" } else if s.queueLength > 0 { head += "  [\(s.queueLength) queued]" }
        if let t = s.track { head += "  " + TerminalText.sanitized(t.trackName ?? "Unknown title") }
        lines.append(head)
        if let t = s.track {
            let by = [t.artistName, t.collectionName].compactMap { $0 }.map(TerminalText.sanitized).joined(separator: " — ")
            if !by.isEmpty { lines.append("  " + by) }
            lines.append("  " + (isatty(STDOUT_FILENO) == 1 ? PositionBar.text(positionMs: s.positionMs, durationMs: s.durationMs, width: 32)
                                                             : "\(DisplayText.clock(s.positionMs)) / \(DisplayText.clock(s.durationMs))"))
        }
        var modes = ["volume \(s.volume)%" + (s.muted ? " (muted)" : "")]
        if !s.outputEnabled { modes.append("output off (silent)") } else if s.outputs.contains(where: { !$0.enabled }) {
            modes.append("outputs " + s.outputs.filter(\.enabled).map { TerminalText.sanitized($0.name) }.joined(separator: ", "))
        }
        if let here = s.playHere { modes.append(here.hereOnly ? "playing on a page (here only)" : "playing on a page and the speakers") }
        if s.normalization == .off { modes.append("normalize off") }
        if s.repeat != .off { modes.append("repeat \(s.repeat.rawValue)") }
        if s.shuffle { modes.append("shuffle") }
        if s.single != .off { modes.append(s.single == .on ? "single" : "single once") }
        if s.consume { modes.append("consume") }
        if s.radio { modes.append("radio") }
        if s.crossfade > 0 { modes.append("crossfade \(s.crossfade) s") }
        if s.marked { modes.append("★ marked") }
        if s.buffering { modes.append("buffering…") }
        lines.append("  " + modes.joined(separator: " · "))
        if let reason = s.reason { lines.append("  " + TerminalText.sanitized(reason)) }
        if let note = s.radioNote { lines.append("  " + TerminalText.sanitized(note)) }
        if let l = s.loudness.flatMap(loudness) { lines.append("  loudness " + l) }
        if let w = s.waiting {
            lines.append("  " + TerminalText.sanitized(w.line))
        } else if let e = s.error {
            lines.append("  error: " + TerminalText.sanitized(e))
        }
        if s.output != "ok" { lines.append("  output: " + TerminalText.sanitized(s.output)) }
        return lines.joined(separator: "\n")
    }

    /// A loudness report in one line: "-9.7 LUFS, -8.8 dBTP · gain -6.3 dB (measured)"; nil when
    /// nothing is known yet.
    static func loudness(_ r: LoudnessReport) -> String? {
        var parts: [String] = []
        if let lufs = r.integratedLUFS, let peak = r.truePeakDBTP { parts.append("\(tenths(lufs)) LUFS, \(tenths(peak)) dBTP") }
        if let gain = r.gain {
            switch gain.basis {
            case .off: parts.append("normalisation off")
            default:
                let sign = gain.db > 0.04 ? "+" : ""
                let why = gain.basis == .estimate ? "estimated from the first seconds" : gain.basis.rawValue
                parts.append("gain \(sign)\(tenths(gain.db)) dB (\(why)\(gain.peakLimited ? ", peak-limited" : ""))")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `x` with one decimal ("-9.7"), without Foundation's formatter.
    static func tenths(_ x: Double) -> String {
        let t = Int((x * 10).rounded())
        return (t < 0 ? "-" : "") + "\(abs(t) / 10).\(abs(t) % 10)"
    }

    /// The human form of a queue report: `▶` marks the current item, `✗` the failed ones.
    static func queue(_ q: QueueReport) -> String {
        guard !q.items.isEmpty else { return "(the queue is empty)" }
        return q.items.enumerated().map { i, item in
            let mark = i == q.index ? "▶" : (item.failure != nil ? "✗" : " ")
            var line = "\(mark) \(String(repeating: " ", count: max(0, 3 - String(i).count)))\(i)  " + TerminalText.sanitized(item.track.displayName)
            if item.track.fetchablePreviewURL == nil { line += "  (no preview)" }
            if let failure = item.failure { line += "  (failed: \(TerminalText.sanitized(failure)))" }
            if let reason = item.reason { line += "  · " + TerminalText.sanitized(reason.text) }
            return line
        }.joined(separator: "\n")
    }

    /// The human form of `queue --since`: the version, the length, and each item that changed.
    static func queueChanges(_ r: QueueChangesReport) -> String {
        var lines = ["version \(r.version), \(r.length) item\(r.length == 1 ? "" : "s"), \(r.items.count) changed"]
        for change in r.items {
            lines.append("  \(String(repeating: " ", count: max(0, 3 - String(change.index).count)))\(change.index)  id \(change.item.id)  "
                         + TerminalText.sanitized(change.item.track.displayName))
        }
        return lines.joined(separator: "\n")
    }

    /// The human form of a catalog report: the table, what was not queued and why, what plays.
    static func catalog(_ value: JSONValue) throws -> String {
        let r = try value.decode(as: CatalogReport.self)
        var lines = [CatalogTable.render(r)]
        if let hints = lookupHints(r) { return ([lines[0]] + hints).joined(separator: "\n") }
        guard r.queued else {   // --no-queue: the table, and what could not play
            return ([lines[0]] + (r.previewSentence.map { [$0] } ?? [])).joined(separator: "\n")
        }
        if let album = r.album { lines.append("album: " + TerminalText.sanitized(album)) }
        for item in r.notQueued {
            let name = r.results[item.result].trackName ?? r.results[item.result].collectionName ?? r.results[item.result].artistName ?? "?"
            lines.append("not queued: \(TerminalText.sanitized(name)) — \(TerminalText.sanitized(item.reason))")
        }
        if r.firstQueueIndex != nil, let sentence = r.previewSentence { lines.append(sentence) }
        let queued = r.results.count - r.notQueued.count
        var summary = r.notQueued.isEmpty ? "\(CatalogReport.count(queued)) queued"
            : queued == 0 ? "nothing queued" : "\(queued) of \(CatalogReport.count(r.results.count)) queued"
        if let first = r.firstQueueIndex, first > 0 { summary += " from index \(first)" }
        if r.skipped > 0 { summary += "; \(r.skipped) malformed entr\(r.skipped == 1 ? "y" : "ies") skipped" }
        if r.mayHaveMore { summary += "; previewctl more for the next page" }
        lines.append(summary)
        if r.firstQueueIndex != nil, r.status.state != .stopped, r.status.state != .idle, let t = r.status.track {
            lines.append("\(r.status.state.rawValue): " + TerminalText.sanitized(t.displayName))
        }
        return lines.joined(separator: "\n")
    }

    /// When every result is an album or every one an artist (`--albums`, `--entity musicArtist`),
    /// nothing can play until one is chosen: how to queue each one's songs. Nil otherwise.
    static func lookupHints(_ r: CatalogReport) -> [String]? {
        guard r.firstQueueIndex == nil, !r.results.isEmpty else { return nil }
        if r.results.allSatisfy({ $0.wrapperType == "collection" && $0.collectionId != nil }) {
            return ["to queue an album's songs:"] + r.results.map {
                "  previewctl lookup \($0.collectionId!)   " + TerminalText.sanitized($0.collectionName ?? "")
            }
        }
        if r.results.allSatisfy({ $0.wrapperType == "artist" && $0.artistId != nil }) {
            return ["to queue an artist's songs:"] + r.results.map {
                "  previewctl lookup \($0.artistId!)   " + TerminalText.sanitized($0.artistName ?? "")
            }
        }
        return nil
    }

    /// The human form of `add`'s answer (nothing when nothing was added: `nothingAdded` says why).
    static func added(_ r: AddReport) -> String {
        guard !r.ids.isEmpty else { return "" }
        var lines = ["added \(r.ids.count) track\(r.ids.count == 1 ? "" : "s") (ids \(r.ids.map(String.init).joined(separator: ", "))); queue version \(r.queueVersion)"]
        for item in r.notQueued { lines.append("not queued: #\(item.result + 1) — \(TerminalText.sanitized(item.reason))") }
        return lines.joined(separator: "\n")
    }

    /// When an add or a load queued nothing: what was not added and why, naming each track by its
    /// id when the ids were given (`asked`), else by its place in what was asked (1-based).
    static func nothingAdded(_ r: AddReport, asked: [Int]? = nil, empty: String = "there was nothing to add") -> String? {
        guard r.ids.isEmpty else { return nil }
        guard !r.notQueued.isEmpty else { return "nothing added: " + empty }
        return "nothing added: " + r.notQueued.map { item in
            let name = asked.flatMap { $0.indices.contains(item.result) ? "track \($0[item.result])" : nil } ?? "#\(item.result + 1)"
            return "\(name) \(item.reason)"
        }.joined(separator: "; ")
    }

    /// The human form of `mark` and `unmark`: the track they were about, as `queue` shows it.
    static func mark(_ r: MarkReport) -> String {
        (r.marked ? "★ marked    " : "unmarked    ") + "\(r.index)  " + TerminalText.sanitized(r.track.displayName)
    }

    /// The human form of `lists`.
    static func lists(_ r: ListsReport) -> String {
        guard !r.lists.isEmpty else { return "(no saved lists)" }
        // Aligned by terminal cells, not bytes or characters: "Café" and "夜" take 4 and 2.
        let names = r.lists.map { TerminalText.sanitized($0.name) }
        let width = min(40, names.map(DisplayText.cells).max() ?? 0)
        return zip(names, r.lists).map { name, list in
            DisplayText.padded(name, width) + "  \(list.count) track\(list.count == 1 ? "" : "s")"
        }.joined(separator: "\n")
    }

    /// The human form of `lists NAME`.
    static func list(_ r: ListReport) -> String {
        let tracks = r.tracks ?? []
        guard !tracks.isEmpty else { return "(\"\(TerminalText.sanitized(r.name))\" is empty)" }
        return tracks.enumerated().map { "\(String(repeating: " ", count: max(0, 3 - String($0).count)))\($0)  " + TerminalText.sanitized($1.displayName) }
            .joined(separator: "\n")
    }

    /// The human form of `info`.
    static func info(_ value: JSONValue) throws -> String {
        let r = try value.decode(as: InfoReport.self)
        let t = r.track
        let isFilm = (t.kind ?? "").contains("movie")
        var fields: [(String, String?)] = [
            ("index", String(r.index)),
            ("title", t.trackName ?? t.collectionName),
            (isFilm ? "director" : "artist", t.artistName),
            ("album", isFilm ? nil : t.collectionName),
            ("kind", t.kind),
            ("released", t.releaseDate.map { String($0.prefix(10)) }),
            ("song length", t.trackTimeMillis.map { DisplayText.clock($0) }),
            ("genre", t.primaryGenreName),
            ("price", DisplayText.price(t).isEmpty ? nil : DisplayText.price(t)),
            ("rating", t.contentAdvisoryRating),
            ("explicit", t.trackExplicitness),
            ("store", t.trackViewUrl ?? t.collectionViewUrl),
            ("artwork", t.artworkUrl100 ?? t.artworkUrl60 ?? t.artworkUrl30),   // one address: the sizes differ only in their name
            ("preview", t.previewUrl),
            ("description", isFilm ? (t.longDescription ?? t.shortDescription) : nil),
            ("loudness", r.loudness.flatMap(loudness)),
            ("failed", r.error),
        ]
        if let a = r.artist {
            fields += [(isFilm ? "production" : "artist info", [a.artistType ?? a.wrapperType, a.artistName, a.primaryGenreName]
                .compactMap { $0 }.joined(separator: " · ")), ("artist link", a.artistLinkUrl)]
        } else if let why = r.artistError {
            fields.append(("artist info", "unavailable (\(why))"))
        }
        return fields.compactMap { key, value in
            guard let value, !value.isEmpty else { return nil }
            return key + String(repeating: " ", count: max(1, 12 - key.count)) + TerminalText.sanitized(value)
        }.joined(separator: "\n")
    }

    /// The human form of `share`: the line alone.
    static func share(_ report: ShareReport) -> String {
        TerminalText.sanitized(report.line)
    }

    /// "1 decoder", "2 decoders".
    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The human form of `memory`: the loads alive, then each store against its bound.
    static func memory(_ report: MemoryReport) -> String {
        let live = report.live
        var lines = ["anonymous memory  " + (report.anonymousBytes.map { mebibytes($0) } ?? "unknown"),
                     "loads alive       " + [count(live.downloads, "download"), count(live.pcmBuffers, "PCM ring"),
                                             count(live.decoders, "decoder"), count(live.slots, "slot")].joined(separator: ", ")
                        + " (the prefetch window holds \(report.window)" + (report.heads.map { ", and \($0) heads at most" } ?? "") + "); "
                        + count(live.httpExchanges, "HTTP request")]
        for store in report.stores {
            var line = DisplayText.padded(store.name, 18) + "\(store.entries) of \(store.maxEntries)"
            if let bytes = store.bytes, let max = store.maxBytes { line += ", \(mebibytes(bytes)) of \(mebibytes(max))" }
            lines.append(line)
        }
        if let calls = report.catalogCalls { lines.append(DisplayText.padded("catalog calls", 18) + "\(calls) since the start") }
        return lines.joined(separator: "\n")
    }

    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// One event as a short line (`watch`).
    static func event(_ e: JSONValue) -> String {
        let text = { (key: String) in TerminalText.sanitized(e[key]?.stringValue ?? "") }
        let int = { (key: String) in e[key]?.intValue }
        switch text("event") {
        case "state": return "state   \(text("state"))" + (int("index").map { " [\($0 + 1)]" } ?? "")
        case "track":
            let t = e["track"].flatMap { try? $0.decode(as: Track.self) }
            return "track   [\((int("index") ?? 0) + 1)] " + TerminalText.sanitized(t?.displayName ?? "?")
        case "queue": return "queue   \(int("length") ?? 0) items"
        case "error": return "error   " + text("message")
        case "output": return "output  " + text("state") + (e["reason"] != nil ? " (\(text("reason")))" : "")
        case "volume": return "volume  \(int("volume") ?? 0)%" + (e["muted"]?.boolValue == true ? " (muted)" : "")
        case "modes":
            return "modes   repeat \(text("repeat")), shuffle \(e["shuffle"]?.boolValue == true ? "on" : "off"), "
                + "single \(text("single")), consume \(e["consume"]?.boolValue == true ? "on" : "off")"
        case "crossfade": return "crossfade \(int("seconds") ?? 0) s"
        case "artwork": return "artwork [\((int("index") ?? 0) + 1)] " + text("path")
        case "seeked": return "seeked  [\((int("index") ?? 0) + 1)] to \(DisplayText.clock(int("positionMs")))"
        case "normalization": return "normalize \(text("mode"))"
        case "lists": return "lists   a saved list changed"
        case "waiting":
            guard let w = e["waiting"].flatMap({ try? $0.decode(as: NetworkWaitReport.self) }) else { return "waiting over: the network answers" }
            return "waiting [\(w.index + 1)] " + TerminalText.sanitized(w.message)
        case "playhere":
            guard let here = e["playHere"].flatMap({ try? $0.decode(as: PlayHereReport.self) }) else { return "play here off: the speakers again" }
            return "play here: a page plays" + (here.hereOnly ? " (here only)" : ", the speakers too")
        case "buffering": return e["buffering"]?.boolValue == true ? "buffering (the network is slow)" : "buffering over"
        case "position": return "position \(DisplayText.clock(int("positionMs"))) / \(DisplayText.clock(int("durationMs")))"
        case "loudness":
            let report = e["loudness"].flatMap { try? $0.decode(as: LoudnessReport.self) }
            return "loudness [\((int("index") ?? 0) + 1)] " + (report.flatMap(loudness) ?? "?")
        default: return json(e)
        }
    }
}
