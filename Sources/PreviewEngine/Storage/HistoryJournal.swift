#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore
import Synchronization
/// The history: each preview heard for at least five seconds, one JSON line each in
/// `history.jsonl`, the last 10,000 kept (when a tenth more have piled up, the file is rewritten
/// with the newest 10,000, whole or not at all). Nothing is sent anywhere. Its methods do file
/// work: call them on the state thread (`StateDisk.run`).
public final class HistoryJournal: Sendable {
    /// The most entries kept.
    public static let maxEntries = 10_000
    /// A preview heard this long (playing) is journaled.
    public static let minimumSeconds = 5

    /// The journal's file.
    public let path: String
    private let log: Log
    /// Lines in the file, once counted (the state thread's only).
    private let lines = Mutex<Int?>(nil)
    /// The newest `recentCount` entries, oldest first, once read (the library asks for them often:
    /// the file is read once, then followed).
    private let recent = Mutex<[HistoryEntry]?>(nil)
    /// Entries `recentEntries` keeps.
    public static let recentCount = 2_000

    public init(path: String, log: Log) {
        self.path = path
        self.log = log
    }

    /// Appends `entry`; rotates when the file holds a tenth more than it keeps.
    public func append(_ entry: HistoryEntry) {
        guard var line = try? JSONEncoder().encode(entry).map({ $0 }) else { return }
        line.append(UInt8(ascii: "\n"))
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return log(.warning, "history \(path): \(String(cString: strerror(errno)))") }
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == line.count else { return log(.warning, "history \(path): not written (\(String(cString: strerror(errno))))") }
        recent.withLock { kept in
            guard kept != nil else { return }
            kept!.append(entry)
            if kept!.count > Self.recentCount { kept!.removeFirst(kept!.count - Self.recentCount) }
        }
        let count = lines.withLock { known in
            let now = known.map { $0 + 1 } ?? entries().count   // counted once, then followed
            known = now
            return now
        }
        if count > Self.maxEntries + Self.maxEntries / 10 { rotate() }
    }

    /// The newest `limit` entries, oldest first; lines that do not parse are skipped.
    public func entries(limit: Int = HistoryJournal.maxEntries) -> [HistoryEntry] {
        guard case .bytes(let bytes) = AtomicFile.read(path, maxBytes: 64 << 20) else { return [] }
        let decoder = JSONDecoder()
        let all = bytes.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(HistoryEntry.self, from: Data($0)) }
        return Array(all.suffix(max(0, limit)))
    }

    /// The newest `recentCount` entries, oldest first: read from the file the first time only.
    public func recentEntries() -> [HistoryEntry] {
        if let kept = recent.withLock({ $0 }) { return kept }
        let read = entries(limit: Self.recentCount)
        recent.withLock { $0 = read }
        return read
    }

    /// Keeps the newest `maxEntries`.
    private func rotate() {
        let kept = entries()
        let encoder = JSONEncoder()
        var bytes: [UInt8] = []
        for entry in kept { bytes += (try? encoder.encode(entry)).map(Array.init) ?? []; bytes.append(UInt8(ascii: "\n")) }
        if let failure = AtomicFile.write(bytes, to: path, durable: true) {
            log(.warning, "history \(path): not rotated (\(String(cString: strerror(failure))))")
        } else {
            lines.withLock { $0 = kept.count }
        }
    }
}
