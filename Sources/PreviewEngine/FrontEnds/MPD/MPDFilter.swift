import PreviewCore

/// A song filter as MPD reads it: the expressions of MPD 0.21 (`(artist == 'x')`,
/// `(any contains 'x')`, `(!EXPR)`, `(EXPR AND EXPR …)`, nested) or the older `TYPE VALUE` pairs.
/// It is asked of the iTunes Search API as a term and an attribute (`catalogPlan`), and what comes
/// back is held to the whole filter (`matches`), so `find` stays exact though the catalog is fuzzy.
public indirect enum MPDFilter: Equatable, Sendable {
    /// What a condition looks at.
    public enum Field: Equatable, Sendable {
        /// Any tag, or the URI.
        case any
        /// The URI (`itunes:track:ID`).
        case file
        case tag(MPDTag)
        /// A tag MPD knows and previewd cannot fill: it matches nothing.
        case unfilled(String)
        /// `base 'DIR'`: songs filed under a folder of the database (a catalog answer's: the root only).
        case base
        /// `modified-since 'TIME'`, `added-since 'TIME'`: previewd's tracks have no file times, so nothing.
        case modifiedSince
        case addedSince
        /// `AudioFormat == 'R:B:C'` (or `=~` a mask): unknown before a preview is decoded, so nothing.
        case audioFormat
        /// `prio >= N` (MPD 0.24): queue items of that priority or more.
        case prio

        /// The field named `name` (`any`, `file`, a tag, or another of MPD's filter names), or nil.
        public init?(named name: String) {
            switch name.lowercased() {
            case "any": self = .any
            case "file": self = .file
            case "base": self = .base
            case "modified-since": self = .modifiedSince
            case "added-since": self = .addedSince
            case "audioformat": self = .audioFormat
            case "prio": self = .prio
            default:
                if let tag = MPDTag(named: name) { self = .tag(tag) }
                else if MPDTag.mpdNames.contains(name.lowercased()) { self = .unfilled(name.lowercased()) }
                else { return nil }
            }
        }
    }

    /// How a condition compares.
    public enum Operator: String, Equatable, Sendable {
        case equals = "=="
        case notEquals = "!="
        case contains = "contains"
        case startsWith = "starts_with"
        /// `prio >= N`.
        case atLeast = ">="
        /// `AudioFormat =~ 'MASK'`.
        case mask = "=~"
    }

    /// `field op value`.
    case match(Field, Operator, String)
    /// Every one of them.
    case all([MPDFilter])
    /// Not this.
    case not(MPDFilter)

    /// The filter of `TYPE VALUE` pairs (`find`: equality; `search`: contains, case folded).
    public init(pairs: [String], exact: Bool) throws(MPDError) {
        guard !pairs.isEmpty, pairs.count % 2 == 0 else { throw MPDError(.arg, "Incorrect number of filter arguments") }
        var conditions: [MPDFilter] = []
        for i in stride(from: 0, to: pairs.count, by: 2) {
            guard let field = Field(named: pairs[i]) else { throw MPDError(.arg, "Unknown filter type: \(pairs[i].prefix(64))") }
            conditions.append(.match(field, exact ? .equals : .contains, pairs[i + 1]))
        }
        self = conditions.count == 1 ? conditions[0] : .all(conditions)
    }

    /// The expression `text` (one argument, starting with `(`).
    public init(expression text: String) throws(MPDError) {
        var parser = Parser(text: Array(text))
        self = try parser.expression()
        parser.skipSpace()
        guard parser.atEnd else { throw MPDError(.arg, "Unparsed garbage after expression") }
    }

    /// True when `track` (a queue item of `priority`, filed in the database's folder `folder`)
    /// meets the filter; `foldCase` compares without case (`search`).
    public func matches(_ track: Track, priority: Int = 0, folder: String? = nil, foldCase: Bool) -> Bool {
        switch self {
        case .all(let parts): return parts.allSatisfy { $0.matches(track, priority: priority, folder: folder, foldCase: foldCase) }
        case .not(let inner): return !inner.matches(track, priority: priority, folder: folder, foldCase: foldCase)
        case .match(.base, _, let value):
            let base = MPDDatabase.normalized(value)
            return base.isEmpty || folder.map { $0 == base || $0.hasPrefix(base + "/") } ?? false
        case .match(.modifiedSince, _, _), .match(.addedSince, _, _), .match(.audioFormat, _, _): return false
        case .match(.prio, _, let value): return priority >= Int(value) ?? Int.max
        case .match(let field, let op, let value):
            let values: [String] = switch field {
            case .file: [MPDSong.uri(of: track)]
            case .tag(let tag): tag.value(of: track).map { [$0] } ?? []
            case .unfilled, .base, .modifiedSince, .addedSince, .audioFormat, .prio: []
            // `Comment` is previewd's words (`full song …`), not the song's: `any` does not search them.
            case .any: [MPDSong.uri(of: track)] + MPDTag.allCases.filter { $0 != .comment }.compactMap { $0.value(of: track) }
            }
            let wanted = foldCase ? value.lowercased() : value
            let found = values.contains { raw in
                let have = foldCase ? raw.lowercased() : raw
                switch op {
                case .equals, .notEquals: return have == wanted
                case .contains: return have.contains(wanted)
                case .startsWith: return have.hasPrefix(wanted)
                case .atLeast, .mask: return false
                }
            }
            return op == .notEquals ? !found : found
        }
    }

    /// How the catalog is asked for candidates.
    public enum CatalogPlan: Equatable, Sendable {
        /// A search with these words (and attribute).
        case search(CatalogQuery)
        /// A lookup of these track ids (`file == 'itunes:track:ID'`).
        case lookup([Int])
        /// No call: nothing in the catalog can meet it (a file name, a folder, a file time).
        case nothing
    }

    /// The catalog call whose answers can meet the filter: the words of its positive conditions
    /// as the term, with the attribute of their one tag when they share one (artist, album, title,
    /// genre); a URI condition looks the track up. A filter with no words to search for (only
    /// file names, folders, times, formats) is answered with nothing, as MPD finds no such song.
    public func catalogPlan(limit: Int = CatalogQuery.limits.range.upperBound) throws(MPDError) -> CatalogPlan {
        var words: [(Field, String)] = []
        collect(into: &words)
        let ids = words.compactMap { field, value -> Int? in
            guard field == .file || field == .any, case .track(let id)? = try? MPDSong.target(value) else { return nil }
            return id
        }
        if !ids.isEmpty { return .lookup(ids) }
        let terms = words.filter { if case .tag(let tag) = $0.0 { tag != .comment } else { $0.0 == .any } }
        guard !terms.isEmpty else { return .nothing }
        var field: CatalogField?
        if case .tag(let tag) = terms[0].0, terms.allSatisfy({ $0.0 == terms[0].0 }) { field = tag.catalogField }
        let query = CatalogQuery.music(terms.map(\.1).joined(separator: " "), in: field, limit: limit)
        do throws(ControlError) { try query.validate() } catch { throw MPDError(error) }
        return .search(query)
    }

    private func collect(into words: inout [(Field, String)]) {
        switch self {
        case .all(let parts): for part in parts { part.collect(into: &words) }
        case .not: break
        case .match(let field, let op, let value):
            if op != .notEquals, !value.isEmpty { words.append((field, value)) }
        }
    }

    /// Recursive descent over MPD's expression syntax (src/song/Filter.cxx).
    private struct Parser {
        let text: [Character]
        var at = 0

        var atEnd: Bool { at >= text.count }

        mutating func skipSpace() {
            while at < text.count, text[at] == " " || text[at] == "\t" { at += 1 }
        }

        mutating func expect(_ c: Character) throws(MPDError) {
            skipSpace()
            guard at < text.count, text[at] == c else { throw MPDError(.arg, "'\(c)' expected") }
            at += 1
        }

        mutating func expression() throws(MPDError) -> MPDFilter {
            try expect("(")
            skipSpace()
            guard at < text.count else { throw MPDError(.arg, "Unexpected end of expression") }
            if text[at] == "!" {
                at += 1
                let inner = try expression()
                try expect(")")
                return .not(inner)
            }
            if text[at] == "(" {
                var parts = [try expression()]
                while true {
                    skipSpace()
                    if at < text.count, text[at] == ")" { at += 1; break }
                    guard word() == "AND" else { throw MPDError(.arg, "'AND' expected") }
                    parts.append(try expression())
                }
                return parts.count == 1 ? parts[0] : .all(parts)
            }
            let name = word()
            guard let field = Field(named: name) else {
                throw MPDError(.arg, name.isEmpty ? "Tag name expected" : "Unknown filter type: \(name.prefix(64))")
            }
            skipSpace()
            switch field {
            case .base, .modifiedSince, .addedSince:   // `(base 'VALUE')`: no operator (src/song/Filter.cxx)
                let value = try quoted()
                try expect(")")
                return .match(field, .equals, value)
            case .prio:
                guard word(operatorChars: true) == ">=" else { throw MPDError(.arg, "'>=' expected") }
                skipSpace()
                let start = at
                while at < text.count, text[at].isNumber { at += 1 }
                guard at > start, let n = Int(String(text[start..<at])) else { throw MPDError(.arg, "Integer expected") }
                try expect(")")
                return .match(.prio, .atLeast, String(n))
            case .audioFormat:
                let op = word(operatorChars: true)
                guard op == "==" || op == "=~" else { throw MPDError(.arg, "'==' or '=~' expected") }
                let value = try quoted()
                try expect(")")
                return .match(.audioFormat, op == "==" ? .equals : .mask, value)
            default: break
            }
            let opText = word(operatorChars: true)
            guard let op = Operator(rawValue: opText), op != .mask, op != .atLeast else {
                throw MPDError(.arg, opText == "=~" || opText == "!~" ? "Regular expressions are not supported"
                               : "Unknown filter operator: \(opText.prefix(16))")
            }
            let value = try quoted()
            try expect(")")
            return .match(field, op, value)
        }

        /// A tag name (letters, digits, `_`, `-`) or an operator.
        mutating func word(operatorChars: Bool = false) -> String {
            skipSpace()
            let start = at
            while at < text.count {
                let c = text[at]
                let fits = operatorChars ? (c.isLetter || c == "_" || "=!~>".contains(c)) : (c.isLetter || c.isNumber || c == "_" || c == "-")
                guard fits else { break }
                at += 1
            }
            return String(text[start..<at])
        }

        mutating func quoted() throws(MPDError) -> String {
            skipSpace()
            guard at < text.count, text[at] == "'" || text[at] == "\"" else { throw MPDError(.arg, "Quoted value expected") }
            let quote = text[at]
            at += 1
            var value = ""
            while at < text.count {
                let c = text[at]
                at += 1
                if c == quote { return value }
                if c == "\\", at < text.count {
                    value.append(text[at])
                    at += 1
                } else {
                    value.append(c)
                }
            }
            throw MPDError(.arg, "Closing quote not found")
        }
    }
}
