import Glibc

/// A folder only this user may enter: the artwork cache, the state and the saved lists.
enum PrivateFolder {
    /// Makes `path` and the folders above it that are missing, each 0700; the last must be a
    /// folder of this user's, and is made 0700 if it was not. Nil when done, else why not.
    static func make(_ path: String) -> String? {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                return "cannot make \(prefix): \(String(cString: strerror(errno)))"
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
            return "\(path) is not a folder of this user's"
        }
        if info.st_mode & 0o077 != 0 { chmod(path, 0o700) }
        return nil
    }
}
