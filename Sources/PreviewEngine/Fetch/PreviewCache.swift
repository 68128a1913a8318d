#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// An optional disk cache of whole previews. Preview URLs are immutable, so a preview played before
/// costs no download. Files are named by the SHA-256 of the URL (no path from the URL reaches the
/// disk, and no crafted URL can take another's file), written atomically, and the least recently
/// used are removed past `maxBytes`.
public final class PreviewCache: Sendable {
    /// The cache folder.
    public let directory: URL
    /// The most bytes kept on disk.
    public let maxBytes: Int
    /// One thread, so reads, stores and trims happen in order, off the engine loop.
    private let writer = WorkerPool(name: "previewd.cache", maxThreads: 1)

    /// A cache in `directory` (created 0700 if missing) holding at most `maxBytes`.
    public init(directory: URL, maxBytes: Int) throws {
        self.directory = directory
        self.maxBytes = maxBytes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// Reads the cached body of `url` on the cache's thread (after the stores asked for before)
    /// and hands it, or nil, to `done` there.
    public func read(_ url: String, _ done: @escaping @Sendable (Data?) -> Void) {
        writer.run { [self] in done(load(url)) }
    }

    /// The cached body of `url`, if held (and marks it recently used).
    public func load(_ url: String) -> Data? {
        let file = path(for: url)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        utimensat(AT_FDCWD, file.path, nil, 0)   // modified now: the least recently used go first
        return data
    }

    /// Stores the complete body of `url` in the background, then trims the cache to its size.
    public func store(_ url: String, _ body: Data) {
        guard body.count <= maxBytes else { return }
        let file = path(for: url)
        writer.run { [self] in
            writeAtomically(body, to: file)
            trim()
        }
    }

    /// Writes `data` to a temporary file and renames it over `file`: readers see all or nothing.
    private func writeAtomically(_ data: Data, to file: URL) {
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data,
                                             attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }

    /// Appends `line` to the small file `name` of the cache's folder, in the background (one
    /// write, so lines stay whole).
    public func append(_ line: String, to name: String) {
        let file = directory.appendingPathComponent(name).path
        writer.run {
            let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            _ = Array(line.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }

    /// Replaces the small file `name` of the cache's folder with `text`, atomically, in the background.
    public func replace(_ name: String, with text: String) {
        let file = directory.appendingPathComponent(name)
        writer.run { [self] in writeAtomically(Data(text.utf8), to: file) }
    }

    /// Waits until pending stores are written (for tests and shutdown).
    public func flush() { writer.waitUntilIdle() }

    private func trim() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        var entries = names.filter { $0.hasSuffix(".m4a") }.compactMap { name -> (String, Int, Int)? in
            let file = directory.appendingPathComponent(name).path
            var info = stat()
            guard stat(file, &info) == 0 else { return nil }
            return (file, Int(info.st_size), info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
        }
        var total = entries.reduce(0) { $0 + $1.1 }
        entries.sort { $0.2 < $1.2 }   // oldest first
        for (file, size, _) in entries where total > maxBytes {
            unlink(file)
            total -= size
        }
    }

    /// `<SHA-256 of the URL>.m4a`: stable across runs.
    func path(for url: String) -> URL {
        directory.appendingPathComponent(SHA256.hex(Array(url.utf8)) + ".m4a")
    }
}
