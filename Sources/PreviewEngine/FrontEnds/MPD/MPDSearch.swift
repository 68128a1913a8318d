import PreviewCore

/// The arguments of `find`, `search`, `findadd`, `searchadd`, `count` and `list`: a filter (an
/// expression or `TYPE VALUE` pairs), then `sort [-]TAG`, `window START:END`, `position POS`
/// and `group TAG` as the command allows.
public struct MPDSearch: Equatable, Sendable {
    /// The filter; nil when none was given (`list album`).
    public var filter: MPDFilter?
    /// Sort by this tag, descending when asked.
    public var sort: (tag: MPDTag, descending: Bool)?
    /// Only these results (after sorting).
    public var window: Range<Int>?
    /// Where `findadd`/`searchadd` insert (as `addid`'s position).
    public var position: String?
    /// `list`/`count`: group by these tags.
    public var groups: [MPDTag] = []

    /// Reads `arguments`; `exact` for `find` (equality), else `search` (contains, case folded).
    public init(_ arguments: [String], exact: Bool, filterRequired: Bool = true) throws(MPDError) {
        var rest = arguments
        var keywords: [(String, String)] = []
        // Keywords come after the filter: read them from the end.
        while rest.count >= 2, ["sort", "window", "position", "group"].contains(rest[rest.count - 2].lowercased()) {
            keywords.insert((rest[rest.count - 2].lowercased(), rest[rest.count - 1]), at: 0)
            rest.removeLast(2)
        }
        for (key, value) in keywords {
            switch key {
            case "sort":
                let descending = value.hasPrefix("-")
                guard let tag = MPDTag(named: String(value.dropFirst(descending ? 1 : 0))) else {
                    throw MPDError(.arg, "Unknown sort tag: \(value.prefix(64))")
                }
                sort = (tag, descending)
            case "window": window = try MPDRange(value).range(count: Int.max)
            case "position": position = value
            default:
                guard let tag = MPDTag(named: value) else { throw MPDError(.arg, "Unknown tag type: \(value.prefix(64))") }
                groups.append(tag)
            }
        }
        if rest.count == 1, rest[0].hasPrefix("(") {
            filter = try MPDFilter(expression: rest[0])
        } else if !rest.isEmpty {
            filter = try MPDFilter(pairs: rest, exact: exact)
        } else if filterRequired {
            throw MPDError(.arg, "Incorrect number of filter arguments")
        }
    }

    public static func == (a: MPDSearch, b: MPDSearch) -> Bool {
        a.filter == b.filter && a.sort?.tag == b.sort?.tag && a.sort?.descending == b.sort?.descending
            && a.window == b.window && a.position == b.position && a.groups == b.groups
    }

    /// `tracks` sorted and windowed as asked.
    public func arrange(_ tracks: [Track]) -> [Track] {
        var out = tracks
        if let sort {
            out.sort { a, b in
                let x = sort.tag.value(of: a) ?? "", y = sort.tag.value(of: b) ?? ""
                let ordered = if let p = Int(x), let q = Int(y) { p < q } else { x.lowercased() < y.lowercased() }
                return sort.descending ? (x != y && !ordered) : ordered
            }
        }
        if let window {
            let lower = min(window.lowerBound, out.count), upper = min(window.upperBound, out.count)
            out = Array(out[lower..<upper])
        }
        return out
    }
}

/// A song position or range as MPD writes it: `N`, `START:END` (END excluded) or `START:`.
public struct MPDRange: Equatable, Sendable {
    /// The first position.
    public var start: Int
    /// One past the last; nil: to the end.
    public var end: Int?

    /// Reads `text`.
    public init(_ text: String) throws(MPDError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        // Positions are 32-bit in MPD (RangeArg): a larger one is refused before any arithmetic.
        guard let start = UInt32(parts[0]).map(Int.init) else { throw MPDError(.arg, "Integer or range expected: \(text.prefix(32))") }
        self.start = start
        if parts.count == 1 {
            end = start + 1
        } else if parts[1].isEmpty {
            end = nil
        } else {
            guard let end = UInt32(parts[1]).map(Int.init), end >= start else { throw MPDError(.arg, "Bad range: \(text.prefix(32))") }
            self.end = end
        }
    }

    /// The positions within `count` items; a start past the end is an error, as MPD's "Bad song
    /// index". `clip`: a start at `count` is an empty range (MPD's `playlistinfo`, RangeArg::CheckClip).
    public func range(count: Int, clip: Bool = false) throws(MPDError) -> Range<Int> {
        let upper = min(end ?? count, count)
        guard start < upper || (start == upper && (end != start + 1 || clip)) else { throw MPDError(.arg, "Bad song index") }
        return start..<upper
    }
}
