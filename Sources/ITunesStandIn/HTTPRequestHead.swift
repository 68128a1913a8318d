/// The request line and headers of one HTTP/1.1 request, as the stand-in needs them.
struct HTTPRequestHead {
    var method: String
    /// The path without the query.
    var path: String
    /// Query parameters, percent-decoded, `+` as space.
    var query: [String: String]
    /// Header names lower-cased.
    var headers: [String: String]

    /// Parses `text` (everything before the blank line); nil when it is not HTTP.
    init?(_ text: String) {
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        method = String(requestLine[0])
        let target = requestLine[1]
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map(String.init) ?? "/"
        query = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.decode(kv[0])
                query[key] = kv.count == 2 ? Self.decode(kv[1]) : ""
            }
        }
        headers = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    private static func decode(_ s: Substring) -> String {
        String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
    }

    /// The byte range asked for (`Range: bytes=a-b`, `bytes=a-`, `bytes=-n`) within `length`, if any.
    func range(length: Int) -> ClosedRange<Int>? {
        guard let value = headers["range"], value.hasPrefix("bytes="), length > 0 else { return nil }
        let spec = value.dropFirst(6).split(separator: ",").first.map(String.init) ?? ""
        let ends = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2 else { return nil }
        if ends[0].isEmpty, let suffix = Int(ends[1]), suffix > 0 {
            return max(0, length - suffix)...(length - 1)
        }
        guard let start = Int(ends[0]), start < length else { return nil }
        let end = Int(ends[1]).map { min($0, length - 1) } ?? (length - 1)
        return start <= end ? start...end : nil
    }
}

import Foundation
