/// What an answer held, in words: how many results have a preview previewd may play, and what the
/// others are ("2 of 4 results have a preview: 1 podcast, 1 ebook have none").
extension CatalogReport {
    /// The sentence, or nil when every result can play.
    public var previewSentence: String? {
        guard !notQueued.isEmpty else { return nil }
        let total = results.count
        let playable = total - notQueued.count
        // Results with no preview at all are named by what they are; the rest have a preview
        // previewd may not fetch (its own line says why).
        var kinds: [(name: String, count: Int)] = []
        var refused = 0
        for item in notQueued where results.indices.contains(item.result) {
            let track = results[item.result]
            let hasPreview = track.isTrackLike && !(track.previewUrl ?? "").isEmpty
            guard !hasPreview else { refused += 1; continue }
            if let at = kinds.firstIndex(where: { $0.name == track.kindName }) { kinds[at].count += 1 }
            else { kinds.append((track.kindName, 1)) }
        }
        let head: String
        switch playable {
        case 0: head = total == 1 ? "the result has no preview" : "none of the \(total) results has a preview"
        case 1: head = "1 of \(total) results has a preview"
        default: head = "\(playable) of \(total) results have a preview"
        }
        var parts: [String] = []
        if !kinds.isEmpty {
            let named = kinds.map { "\($0.count) \($0.count == 1 ? $0.name : $0.name + "s")" }.joined(separator: ", ")
            let many = kinds.count > 1 || kinds[0].count > 1
            parts.append("\(named) \(many ? "have" : "has") none")
        }
        if refused > 0 { parts.append("\(refused) \(refused == 1 ? "has a preview" : "have previews") previewd may not fetch") }
        var sentence = head + ": " + parts.joined(separator: "; ")
        if notQueued.contains(where: { results.indices.contains($0.result) && results[$0.result].isPodcast }) {
            sentence += " (previewd plays the store's previews, and a podcast has none)"
        }
        return sentence
    }

    /// "1 result", "3 results".
    public static func count(_ n: Int, _ noun: String = "result") -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
