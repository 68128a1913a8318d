import Glibc

/// Files written whole or not at all, and read with a bound. A write goes to a new file beside the
/// old one (mode 0600), is flushed to the disk when it must survive a crash, and is renamed over
/// the old one, whose folder is then flushed too: at every moment the path holds the old file or
/// the new one, never a torn or empty one (MPD's state file, unlinked first, has a moment with none).
enum AtomicFile {
    /// Writes `bytes` to `path`; `durable`: fsync the file before the rename and the folder after.
    /// Nil when written, else the errno that stopped it (the old file is then intact).
    static func write(_ bytes: [UInt8], to path: String, durable: Bool) -> Int32? {
        let temporary = path + ".part"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return errno }
        var offset = 0
        var failure: Int32?
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { failure = n < 0 ? errno : ENOSPC; break }
            offset += n
        }
        if failure == nil, durable, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            return failure
        }
        if durable { syncFolder(of: path) }
        return nil
    }

    /// What reading a file found.
    enum Read {
        /// There is no file.
        case missing
        /// Its bytes.
        case bytes([UInt8])
        /// It is not one to trust or read: why.
        case refused(String)
    }

    /// The bytes of `path`, a regular file of this user's that nobody else may write, of at most
    /// `maxBytes`.
    static func read(_ path: String, maxBytes: Int) -> Read {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            return errno == ENOENT ? .missing : .refused("cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .refused("it is not a regular file") }
        guard info.st_uid == getuid(), info.st_mode & 0o022 == 0 else { return .refused("others may write it (mode \(String(info.st_mode & 0o777, radix: 8)))") }
        guard info.st_size <= maxBytes else { return .refused("it is larger than \(maxBytes >> 20) MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? .refused("it shrank while being read") : .refused("cannot read it: \(String(cString: strerror(errno)))") }
            got += n
        }
        return .bytes(bytes)
    }

    /// Moves `path` aside as `path.corrupt-TIMESTAMP` (kept for a person to look at); returns the new name.
    @discardableResult
    static func moveAside(_ path: String) -> String {
        let aside = "\(path).corrupt-\(time(nil))"
        rename(path, aside)
        return aside
    }

    /// Flushes the folder holding `path`, so a rename in it survives a crash.
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
