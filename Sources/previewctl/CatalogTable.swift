import Glibc
import PreviewCore

/// The seed's result list as a terminal table: queue index, title, artist, album, release date,
/// the song's length (named so: what plays is its preview), genre, price; the text columns share
/// what the terminal's width leaves.
enum CatalogTable {
    /// The terminal's width (stdout's, else $COLUMNS, else 120), at least 21.
    static var width: Int {
        let columns = TerminalSize.current(fallback: TerminalSize(columns: 120, rows: 24)).columns
        return columns > 20 ? columns : 120
    }

    /// The rows of `report`, fitted to `width` columns.
    static func render(_ report: CatalogReport, width: Int = CatalogTable.width) -> String {
        let indices = report.queueIndices
        let rows: [[String]] = report.results.enumerated().map { i, t in
            [indices[i].map(String.init) ?? "-",
             t.trackName ?? t.collectionName ?? t.artistName ?? "?",
             t.artistName ?? "",
             t.collectionName ?? "",
             String((t.releaseDate ?? "").prefix(10)),
             t.trackTimeMillis.map { DisplayText.clock($0) } ?? "",
             t.primaryGenreName ?? "",
             DisplayText.price(t)].map(TerminalText.sanitized)
        }
        let header = ["#", "Title", "Artist", "Album", "Released", "Song", "Genre", "Price"]   // "Song": the song's length, not the preview's
        // Fixed columns take what they need; title, artist, album and genre share the rest.
        let fixed = [0, 4, 5, 7]
        let flexible = [1, 2, 3, 6]
        var widths = (0..<header.count).map { c in ([header] + rows).map { DisplayText.cells($0[c]) }.max() ?? 0 }
        let available = width - fixed.map { widths[$0] }.reduce(0, +) - 2 * (header.count - 1)
        let wanted = flexible.map { widths[$0] }.reduce(0, +)
        if wanted > available {
            let shares = [0.34, 0.24, 0.26, 0.16]
            for (k, c) in flexible.enumerated() { widths[c] = min(widths[c], max(5, Int(Double(max(available, 20)) * shares[k]))) }
        }
        func line(_ cells: [String]) -> String {
            var text = cells.enumerated().map { c, text in
                DisplayText.padded(text, widths[c], alignedRight: [0, 5, 7].contains(c))
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }   // the right-aligned first column keeps its pad
            return text
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
