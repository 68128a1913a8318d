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
/// survives restarts like the previews do. Bounded in memory and on disk. The player's alone.
final class LoudnessStore {
    /// Measurements kept; past this the oldest half is forgotten.
    static let maxEntries = 10_000

    private var entries: [String: Loudness] = [:]
    private var order: [String] = []   // oldest first
    private let cache: PreviewCache?
    static let fileName = "loudness.tsv"
    /// A file larger than this was not written by previewd: it is not read.
    static let maxFileBytes = 4 << 20

    /// A store; persisted in the disk `cache`'s folder when there is one.
    init(cache: PreviewCache?) {
        self.cache = cache
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
        if lines > 2 * Self.maxEntries {   // appended to for long: keep what memory kept
            cache?.replace(Self.fileName, with: order.compactMap { key in entries[key].map { Self.line(key, $0) } }.joined())
        }
    }

    /// The key of a track: its trackId, else a digest of its preview URL.
    static func key(trackId: Int?, url: String) -> String {
        trackId.map { String($0) } ?? "url-" + SHA256.hex(Array(url.utf8))
    }

    /// The whole-clip measurement of `key`, if made.
    subscript(key: String) -> Loudness? { entries[key] }

    /// Keeps a whole-clip measurement (and appends it to the file).
    func record(_ loudness: Loudness, for key: String) {
        remember(loudness, for: key)
        cache?.append(Self.line(key, loudness), to: Self.fileName)
    }

    private static func line(_ key: String, _ loudness: Loudness) -> String {
        "\(key)\t\(loudness.integratedLUFS)\t\(loudness.peakDB)\n"
    }

    private func remember(_ loudness: Loudness, for key: String) {
        if entries.updateValue(loudness, forKey: key) == nil { order.append(key) }
        if order.count > Self.maxEntries {
            order.prefix(Self.maxEntries / 2).forEach { entries[$0] = nil }
            order.removeFirst(Self.maxEntries / 2)
        }
    }
}
