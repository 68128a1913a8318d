#if canImport(Glibc)
import Glibc
#endif
import PreviewCore

/// The check previewctl makes before it connects (docs/PROTOCOL.md): the socket's folder must be the
/// user's (or root's) and not open to others' writes, or someone else's socket could stand in for previewd.
enum SocketCheck {
    /// Why the folder holding `socketPath` is not safe, or nil when it is (or does not exist yet).
    static func folderProblem(socketPath: String) -> String? {
        let folder = socketPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var info = stat()
        guard lstat(folder.isEmpty ? "/" : folder, &info) == 0 else { return nil }
        return SocketPath.folderProblem(isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, owner: info.st_uid,
                                        mode: UInt32(info.st_mode), user: getuid())
    }
}
