/// A `Range` request header read as RFC 9110 §14 says, against a representation of `size` bytes.
/// What a server may do is chosen so a media element gets what it needs: one satisfiable range is
/// answered 206 with exactly those bytes (WebKit asks `bytes=0-1` first, then the rest); a range
/// that starts past the end is 416; a header that is not `bytes=` or is malformed is ignored (the
/// whole, 200, as §14.2 allows); several ranges are answered with the whole too (§14.2: a server
/// may ignore Range; no media element asks for a multipart answer).
enum ByteRange: Equatable {
    /// No usable Range: the whole representation, 200.
    case whole
    /// Bytes `first...last` (both inclusive), 206.
    case part(first: Int, last: Int)
    /// No byte of the range is there: 416, with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Reads `header` (the `Range` field's value, nil when absent) for a representation of `size` bytes.
    init(header: String?, size: Int) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingWhitespace
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }   // another unit: ignored
        let specs = trimmed.dropFirst("bytes=".count).split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingWhitespace }
        guard specs.count == 1, let spec = specs.first, let range = Self.spec(spec) else {
            self = .whole   // several ranges, or a malformed one
            return
        }
        switch range {
        case .from(let first, let last):
            guard first < size else { self = .unsatisfiable; return }
            self = .part(first: first, last: min(last ?? (size - 1), size - 1))
        case .suffix(let length):
            guard length > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(first: max(0, size - length), last: size - 1)
        }
    }

    private enum Spec { case from(Int, Int?), suffix(Int) }

    /// `first-last`, `first-` or `-suffix`; nil when malformed (a last before the first included).
    private static func spec(_ text: String) -> Spec? {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let first = parts[0], last = parts[1]
        if first.isEmpty { return number(last).map { .suffix($0) } }
        guard let from = number(first) else { return nil }
        if last.isEmpty { return .from(from, nil) }
        guard let to = number(last), to >= from else { return nil }
        return .from(from, to)
    }

    /// Decimal digits only; a number too large for an Int reads as `Int.max` (past any end).
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text) ?? Int.max
    }
}
