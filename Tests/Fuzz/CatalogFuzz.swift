// libFuzzer target: iTunes JSON decoding (search/lookup answers and the chart feed). Built by
// scripts/fuzz together with PreviewCore's sources; any crash or broken invariant is a finding.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func catalogFuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let answer = try? JSONDecoder().decode(SearchResponse.self, from: data) {
        for track in answer.results { check(track) }
    }
    if let feed = try? JSONDecoder().decode(ChartFeed.self, from: data) {
        for track in feed.tracks { check(track) }
    }
    return 0
}

private func check(_ track: Track) {
    if let url = track.fetchablePreviewURL {
        let lower = url.lowercased()
        precondition(lower.hasPrefix("http://") || lower.hasPrefix("https://"), "a non-http URL passed the policy: \(url)")
        precondition(track.unplayableReason == nil || track.wrapperType != "track", "policy and reason disagree")
    }
    let shown = TerminalText.sanitized(track.displayName)
    precondition(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) },
                 "a control character survived sanitizing")
    for key in TrackSort.Key.allCases { _ = TrackSort(key).sorted([track, track]) }
}
