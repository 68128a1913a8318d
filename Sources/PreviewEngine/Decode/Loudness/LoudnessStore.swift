#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore

/// Whole-clip loudness measured so far, by track (its trackId; the preview URL's digest for an item
/// without one), so a replay costs nothing. With a disk cache it is also kept in `loudness.tsv`
/// there (one `key<TAB>LUFS<TAB>dBTP` line per measurement, appended), read back at start, so it
/// survives restarts like the previews do. Bounded in memory (`maxEntries`, the least recently
/// used forgotten first, about 100 bytes each) and on disk (rewritten from memory when it has grown
/// to twice that). The player's alone.
final class LoudnessStore {
    /// Measurements kept at most.
    let maxEntries: Int

    /// Each measurement and when it was last recorded or asked for (a counter).
    private var entries: [String: (loudness: Loudness, used: UInt64)] = [:]
    private var uses: UInt64 = 0
    private let cache: PreviewCache?
    static let fileName = "loudness.tsv"
    /// A file larger than this was not written by previewd: it is not read.
    static let maxFileBytes = 4 << 20

    /// A store; persisted in the disk `cache`'s folder when there is one.
    init(cache: PreviewCache?, maxEntries: Int = 10_000) {
        self.cache = cache
        self.maxEntries = max(1, maxEntries)
        var info = stat()
        guard let file = cache?.directory.appendingPathComponent(Self.fileName).path, stat(file, &info) == 0,
              info.st_size <= Self.maxFileBytes, let text = try? String(contentsOfFile: file, encoding: .utf8) else { return }
        var lines = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let lufs = Double(fields[1]), let peak = Double(fields[2]), lufs.isFinite, peak.isFinite else { continue }
            remember(Loudness(integratedLUFS: lufs, peakDB: peak, isWholeTrack: true), for: String(fields[0]))
            lines += 1
        }
        evictPastBound()
        if lines > 2 * maxEntries {   // appended to for long: keep what memory kept, oldest first
            let kept = entries.sorted { $0.value.used < $1.value.used }
            cache?.replace(Self.fileName, with: kept.map { Self.line($0.key, $0.value.loudness) }.joined())
        }
    }

    /// The key of a track: its trackId, else a digest of its preview URL.
    static func key(trackId: Int?, url: String) -> String {
        trackId.map { String($0) } ?? "url-" + SHA256.hex(Array(url.utf8))
    }

    /// The whole-clip measurement of `key`, if made (and now the most recently used).
    subscript(key: String) -> Loudness? {
        guard let entry = entries[key] else { return nil }
        uses += 1
        entries[key]?.used = uses
        return entry.loudness
    }

    /// How full it is, for the `memory` command.
    var report: StoreReport { StoreReport(name: "loudness", entries: entries.count, maxEntries: maxEntries) }

    /// Keeps a whole-clip measurement (and appends it to the file).
    func record(_ loudness: Loudness, for key: String) {
        remember(loudness, for: key)
        evictPastBound()
        cache?.append(Self.line(key, loudness), to: Self.fileName)
    }

    private static func line(_ key: String, _ loudness: Loudness) -> String {
        "\(key)\t\(loudness.integratedLUFS)\t\(loudness.peakDB)\n"
    }

    private func remember(_ loudness: Loudness, for key: String) {
        uses += 1
        entries[key] = (loudness, uses)
    }

    /// Forgets the least recently used measurements past `maxEntries`: one scan per new measurement
    /// once full (a few a minute), one sort after reading the file.
    private func evictPastBound() {
        let excess = entries.count - maxEntries
        if excess == 1, let leastRecent = entries.min(by: { $0.value.used < $1.value.used }) {
            entries[leastRecent.key] = nil
        } else if excess > 1 {
            for key in entries.sorted(by: { $0.value.used < $1.value.used }).prefix(excess).map(\.key) { entries[key] = nil }
        }
    }
}
