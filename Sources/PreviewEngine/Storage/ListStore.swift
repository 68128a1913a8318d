#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore
import Synchronization

/// The saved lists (MPD's stored playlists): one `NAME.jsonl` each in a private folder, at most
/// 1,000 lists of 10,000 tracks. Its methods do file work: call them on the state thread
/// (`StateDisk.run`). The shortlist is the list `marked`; its track ids are kept in memory so the
/// status can say whether the current track is marked without touching the disk.
public final class ListStore: Sendable {
    /// The most lists, and the most tracks in one.
    public static let maxLists = 1_000
    public static let maxTracks = PlayQueue.maxCount

    /// The folder of the lists.
    public let folder: String
    private let files: TrackFileStore<SavedListHeader>
    private let markedIds = Mutex<Set<Int>>([])

    /// The lists in `folder` (made private if it is not); throws why it cannot be used.
    public init(folder: String, log: Log) throws(ControlError) {
        if let problem = StateFolders.prepare(folder) { throw ControlError(.internal, problem) }
        self.folder = folder
        files = TrackFileStore(count: { $0.count }, format: { $0.format }, currentFormat: SavedListHeader.currentFormat, log: log)
        refreshMarked(read(.marked))
    }

    /// True when the track with `trackId` is on the shortlist. Any thread.
    public func isMarked(_ trackId: Int?) -> Bool {
        guard let trackId else { return false }
        return markedIds.withLock { $0.contains(trackId) }
    }

    /// Every list with its size, by name; a list file that cannot be read is moved aside.
    public func summaries() -> [ListSummary] {
        names().compactMap { name in
            guard let header = readHeader(name), let list = try? ListName(name) else { return nil }
            var info = stat()
            let modified = stat(path(list), &info) == 0 ? Int(info.st_mtim.tv_sec) : nil
            return ListSummary(name: name, count: header.count, modified: modified)
        }.sorted { $0.name < $1.name }
    }

    /// The tracks of list `name`.
    public func tracks(_ name: ListName) throws(ControlError) -> [Track] {
        guard let tracks = read(name) else { throw ControlError(.rejected, "no list named \"\(name)\"") }
        return tracks
    }

    /// Saves `tracks` as list `name` (a new one, after what it holds, or replacing it, as `mode`
    /// says); returns its size.
    @discardableResult
    public func save(_ name: ListName, _ tracks: [Track], mode: ListSaveMode = .replace) throws(ControlError) -> Int {
        let existing = read(name)
        if mode == .create, existing != nil {
            throw ControlError(.rejected, "a list named \"\(name)\" exists already: replace it or append to it")
        }
        let append = mode == .append
        if existing == nil, names().count >= Self.maxLists {
            throw ControlError(.rejected, "previewd keeps at most \(Self.maxLists) lists; forget some first")
        }
        let all = (append ? existing ?? [] : []) + tracks
        guard all.count <= Self.maxTracks else {
            throw ControlError(.rejected, "a list holds at most \(Self.maxTracks) tracks (\"\(name)\" would have \(all.count))")
        }
        try write(name, all)
        return all.count
    }

    /// Removes the track at `index` of list `name` (every track when nil); returns its size.
    @discardableResult
    public func remove(from name: ListName, at index: Int?) throws(ControlError) -> Int {
        var all = try tracks(name)
        if let index {
            guard all.indices.contains(index) else { throw ControlError(.badArgument, "no track at index \(index) of \"\(name)\" (it has \(all.count))") }
            all.remove(at: index)
        } else {
            all = []
        }
        try write(name, all)
        return all.count
    }

    /// Moves the track at `from` of list `name` to `to`; returns its size.
    @discardableResult
    public func move(in name: ListName, from: Int, to: Int) throws(ControlError) -> Int {
        var all = try tracks(name)
        guard all.indices.contains(from), all.indices.contains(to) else {
            throw ControlError(.badArgument, "no track at index \(max(from, to)) of \"\(name)\" (it has \(all.count))")
        }
        all.insert(all.remove(at: from), at: to)
        try write(name, all)
        return all.count
    }

    /// Removes every track with `trackId` from list `name`; returns its size.
    @discardableResult
    public func remove(trackId: Int, from name: ListName) throws(ControlError) -> Int {
        let all = (read(name) ?? []).filter { $0.trackId != trackId }
        try write(name, all)
        return all.count
    }

    /// Deletes list `name`.
    public func forget(_ name: ListName) throws(ControlError) {
        guard unlink(path(name)) == 0 else {
            throw errno == ENOENT ? ControlError(.rejected, "no list named \"\(name)\"")
                : ControlError(.internal, "cannot delete \"\(name)\": \(String(cString: strerror(errno)))")
        }
        if name == .marked { refreshMarked([]) }
    }

    /// Renames list `name` to `new` (which must not exist).
    public func rename(_ name: ListName, to new: ListName) throws(ControlError) {
        let tracks = try tracks(name)
        guard read(new) == nil else { throw ControlError(.rejected, "a list named \"\(new)\" exists already") }
        try write(new, tracks)
        try forget(name)
    }

    // MARK: Files

    private func path(_ name: ListName) -> String { folder + "/" + name.description + ".jsonl" }

    private func read(_ name: ListName) -> [Track]? {
        files.load(path(name), what: "list")?.tracks
    }

    private func write(_ name: ListName, _ tracks: [Track]) throws(ControlError) {
        let file = TrackFile(header: SavedListHeader(name: name.description, count: tracks.count), tracks: tracks)
        if let problem = files.save(file, to: path(name)) {
            throw ControlError(.internal, "cannot write the list \"\(name)\": \(problem)")
        }
        if name == .marked { refreshMarked(tracks) }
    }

    private func refreshMarked(_ tracks: [Track]?) {
        let ids = Set((tracks ?? []).compactMap(\.trackId))
        markedIds.withLock { $0 = ids }
    }

    /// The names of the list files in the folder (one more than the bound at most: enough to refuse a new one).
    private func names() -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir), names.count <= Self.maxLists {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".jsonl"), !name.hasPrefix(".") else { continue }
            names.append(String(name.dropLast(6)))
        }
        return names
    }

    /// A list's header, read from its first line alone (a list's size without reading its tracks).
    private func readHeader(_ name: String) -> SavedListHeader? {
        guard let list = try? ListName(name) else { return nil }
        let fd = open(path(list), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0, let end = bytes[..<n].firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(SavedListHeader.self, from: Data(bytes[..<end])) else {
            return read(list).map { SavedListHeader(name: name, count: $0.count) }   // moved aside if broken
        }
        return header
    }
}
