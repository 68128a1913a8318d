import Foundation

/// An optional disk cache of whole previews. Preview URLs are immutable, so a preview played before
/// costs no download. Files are named by a hash of the URL, written atomically, and the least
/// recently used are removed past `maxBytes`.
public final class PreviewCache: Sendable {
    /// The cache folder.
    public let directory: URL
    /// The most bytes kept on disk.
    public let maxBytes: Int
    private let queue = DispatchQueue(label: "previewd.cache")

    /// A cache in `directory` (created 0700 if missing) holding at most `maxBytes`.
    public init(directory: URL, maxBytes: Int) throws {
        self.directory = directory
        self.maxBytes = maxBytes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// The cached body of `url`, if held (and marks it recently used).
    public func load(_ url: String) -> Data? {
        let file = path(for: url)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return data
    }

    /// Stores the complete body of `url` in the background, then trims the cache to its size.
    public func store(_ url: String, _ body: Data) {
        guard body.count <= maxBytes else { return }
        let file = path(for: url)
        queue.async { [self] in
            let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
            guard FileManager.default.createFile(atPath: temporary.path, contents: body,
                                                 attributes: [.posixPermissions: 0o600]) else { return }
            _ = try? FileManager.default.replaceItemAt(file, withItemAt: temporary)
            if FileManager.default.fileExists(atPath: temporary.path) { rename(temporary.path, file.path) }
            trim()
        }
    }

    /// Waits until pending stores are written (for tests and shutdown).
    public func flush() { queue.sync {} }

    private func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        var entries = files.filter { $0.pathExtension == "m4a" }.compactMap { file -> (URL, Int, Date)? in
            guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
            return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
        var total = entries.reduce(0) { $0 + $1.1 }
        entries.sort { $0.2 < $1.2 }   // oldest first
        for (file, size, _) in entries where total > maxBytes {
            try? FileManager.default.removeItem(at: file)
            total -= size
        }
    }

    /// `<fnv1a-64 of the URL>.m4a`: stable across runs, no path from the URL reaches the disk.
    func path(for url: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return directory.appendingPathComponent(String(format: "%016llx.m4a", hash))
    }
}
