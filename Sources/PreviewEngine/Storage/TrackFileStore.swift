import Glibc
import PreviewCore

/// Reads and writes one kind of track file (`TrackFile`) with previewd's rules for faults: a file
/// that is unreadable, of another user's or writable by others, too large, of a later layout,
/// corrupt or cut short is moved aside (`NAME.corrupt-TIMESTAMP`) with one warning, and what could
/// be read of it is still used; nothing about a file stops previewd. Call on the state thread.
struct TrackFileStore<Header: Codable & Sendable>: Sendable {
    /// The most bytes a file may have (10,000 tracks of a few KiB each, and room).
    static var maxBytes: Int { 64 << 20 }

    /// What the header says: how many tracks follow, and its layout.
    let count: @Sendable (Header) -> Int
    let format: @Sendable (Header) -> Int
    let currentFormat: Int
    let log: Log

    /// What could be read of `path`; nil when there is none or nothing usable.
    func load(_ path: String, what: String) -> TrackFile<Header>? {
        switch AtomicFile.read(path, maxBytes: Self.maxBytes) {
        case .missing:
            return nil
        case .refused(let why):
            log(.warning, "\(what) \(path): \(why); moved aside to \(AtomicFile.moveAside(path))")
            return nil
        case .bytes(let bytes):
            let (file, whole) = TrackFile<Header>.decode(bytes, count: count)
            if let file, format(file.header) > currentFormat {
                log(.warning, "\(what) \(path) is of a later previewd (format \(format(file.header))); moved aside to \(AtomicFile.moveAside(path))")
                return nil
            }
            if !whole {
                let kept = file.map { "; kept its \($0.tracks.count) readable tracks" } ?? ""
                log(.warning, "\(what) \(path) is corrupt or cut short; moved aside to \(AtomicFile.moveAside(path))\(kept)")
            }
            return file
        }
    }

    /// Writes `file` to `path` whole or not at all; nil when written, else why not (the old file is intact).
    func save(_ file: TrackFile<Header>, to path: String) -> String? {
        let bytes: [UInt8]
        do { bytes = try file.encoded() } catch { return "cannot encode: \(error)" }
        return AtomicFile.write(bytes, to: path, durable: true).map { String(cString: strerror($0)) }
    }
}

