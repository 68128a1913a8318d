#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore

/// The artwork of the tracks played: fetched through previewd's own HTTP client and address policy
/// (600×600 from Apple, else the URL as given), checked to be a JPEG or PNG, and kept in a private
/// folder (0700, files 0600, named by the SHA-256 of the URL) of at most `maxFiles` files and
/// `maxBytes` bytes, the least recently used going first. MPRIS shows the files (`file://`: GNOME
/// loads no remote artwork); previewctl draws them.
///
/// Used from the engine loop (the player); file work and image decoding run on `disk`, one thread.
public final class ArtworkStore: @unchecked Sendable {   // confined to the engine loop; `disk` jobs touch only their own values
    /// The folder.
    public let directory: String
    public let maxFiles: Int
    public let maxBytes: Int
    /// The largest image accepted.
    public static let maxImageBytes = 4 << 20
    private let http: HTTPClient
    private let localOrigin: String?
    private let log: Log
    /// The files kept, by name: size and when last used (a counter).
    private var files: [String: (bytes: Int, used: UInt64)] = [:]
    private var uses: UInt64 = 0
    /// Fetches under way, by URL: who waits for them.
    private var fetching: [String: [CheckedContinuation<String?, Never>]] = [:]
    /// URLs that gave no image this run (not asked again); bounded.
    private var failed: Set<String> = []
    /// File writes, removals and image decoding, in order, off the engine loop.
    static let disk = WorkerPool(name: "previewd.artwork", maxThreads: 1)

    /// A store in `directory` (made 0700 when missing); throws when it cannot be made or is not the user's.
    public init(directory: String, http: HTTPClient, localOrigin: String?, log: Log = Log(),
                maxFiles: Int = 256, maxBytes: Int = 64 << 20) throws {
        self.directory = directory
        self.http = http
        self.localOrigin = localOrigin
        self.log = log
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        if let problem = PrivateFolder.make(directory) { throw ArtworkError(problem) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where Self.isOurs(name) {
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files[name] = (Int(info.st_size), UInt64(max(0, info.st_mtim.tv_sec)))
        }
        uses = files.values.map(\.used).max() ?? 0
    }

    /// How full the folder is, for the `memory` command.
    public var report: StoreReport {
        StoreReport(name: "artwork", entries: files.count, maxEntries: maxFiles,
                    bytes: files.values.reduce(0) { $0 + $1.bytes }, maxBytes: maxBytes)
    }

    /// `$XDG_CACHE_HOME/previewd/artwork`, else `~/.cache/previewd/artwork`; nil without either.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/previewd/artwork" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/previewd/artwork" }
        return nil
    }

    /// The cached file of the artwork at `url`, if it is here.
    public func cachedPath(for url: String) -> String? {
        let stem = SHA256.hex(Array(url.utf8))
        for kind in [ArtworkSource.Kind.jpeg, .png] {
            let name = stem + "." + kind.fileExtension
            if files[name] != nil {
                uses += 1
                files[name]?.used = uses
                return directory + "/" + name
            }
        }
        return nil
    }

    /// The cached file of the artwork at `url`, fetched first when it is not here; nil when it
    /// cannot be had (refused, not found, not a JPEG or PNG). Concurrent calls share one fetch.
    /// `large`: Apple's 600-pixel image when it has one (`ArtworkSource`); else the URL as named.
    public func fetch(_ url: String, large: Bool = true) async -> String? {
        let key = large ? url : url + " as named"   // never a URL: a space
        if let path = cachedPath(for: key) { return path }
        guard !failed.contains(key) else { return nil }
        if fetching[key] != nil {
            return await withCheckedContinuation { fetching[key]?.append($0) }
        }
        fetching[key] = []
        let candidates = large ? ArtworkSource.candidates(for: url) : PreviewURLPolicy.isFetchable(url) ? [url] : []
        let path = await download(candidates, key: key)
        if path == nil {
            if failed.count >= 1024 { failed.removeAll() }
            failed.insert(key)
        }
        for waiter in fetching.removeValue(forKey: key) ?? [] { waiter.resume(returning: path) }
        return path
    }

    private func download(_ candidates: [String], key: String) async -> String? {
        for candidate in candidates {
            if let reason = PreviewURLPolicy.localAddressReason(candidate, apiOrigin: localOrigin) {
                log(.warning, "artwork refused: \(reason)")
                return nil
            }
            var request = HTTPRequest(url: candidate)
            request.totalTimeout = 20
            request.stallTimeout = 10
            request.localOrigin = localOrigin
            request.allowRedirect = { [localOrigin] in
                PreviewURLPolicy.isFetchable($0) && PreviewURLPolicy.localAddressReason($0, apiOrigin: localOrigin) == nil
            }
            let response: HTTPResponse
            do { response = try await http.response(to: request, limit: Self.maxImageBytes) }
            catch { log(.debug, "artwork \(candidate): \(error.message)"); continue }
            guard response.head.status == 200, !response.exceededLimit else {
                log(.debug, "artwork \(candidate): HTTP \(response.head.status)\(response.exceededLimit ? ", too large" : "")")
                continue
            }
            guard let kind = ArtworkSource.kind(of: response.body) else {
                log(.info, "artwork \(candidate) is not a JPEG or PNG; not used")
                continue
            }
            return await store(response.body, kind: kind, key: key)
        }
        return nil
    }

    /// Writes the image (to a temporary name, then renamed) and removes the least recently used
    /// files past the bounds; the path, or nil when it could not be written.
    private func store(_ bytes: [UInt8], kind: ArtworkSource.Kind, key: String) async -> String? {
        let name = SHA256.hex(Array(key.utf8)) + "." + kind.fileExtension
        uses += 1
        files[name] = (bytes.count, uses)
        var evicted: [String] = []
        while files.count > maxFiles || files.values.reduce(0, { $0 + $1.bytes }) > maxBytes,
              let oldest = files.filter({ $0.key != name }).min(by: { $0.value.used < $1.value.used }) {
            files[oldest.key] = nil
            evicted.append(oldest.key)
        }
        let (directory, gone) = (self.directory, evicted)
        let written = await Self.onDisk {
            for old in gone { unlink(directory + "/" + old) }
            return Self.write(bytes, to: directory + "/" + name)
        }
        guard written else {
            files[name] = nil
            log(.warning, "artwork: cannot write into \(directory)")
            return nil
        }
        return directory + "/" + name
    }

    /// Runs `body` on the disk thread and returns its result.
    static func onDisk<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in disk.run { continuation.resume(returning: body()) } }
    }

    /// The bytes of a stored image; nil when unreadable or larger than an image may be.
    static func read(_ path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= maxImageBytes else { return nil }
        return [UInt8](data)
    }

    /// Up to `count` bytes of a stored image from `offset` (none at or past its end) and the whole
    /// file's size; nil when unreadable or larger than an image may be.
    static func read(_ path: String, offset: Int, count: Int) -> (size: Int, bytes: [UInt8])? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size <= maxImageBytes else { return nil }
        let size = Int(info.st_size)
        let wanted = max(0, min(count, size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var got = 0
        while got < wanted {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, wanted - got, off_t(offset + got)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return (size, bytes)
    }

    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        AtomicFile.write(bytes, to: path, durable: false) == nil   // a cache: a crash may lose it
    }

    /// Names this store writes: 64 hexadecimal digits and .jpg or .png.
    private static func isOurs(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[0].count == 64 && parts[0].allSatisfy(\.isHexDigit) && ["jpg", "png"].contains(parts[1])
    }
}

/// Why artwork could not be kept or drawn.
public struct ArtworkError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
