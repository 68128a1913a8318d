#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Where the control socket lives by default.
public enum SocketPath {
    /// `$XDG_RUNTIME_DIR/previewd.sock`, or `/tmp/previewd-UID/previewd.sock` when that is unset.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   uid: UInt32 = getuid()) -> String {
        if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty {
            return dir.hasSuffix("/") ? dir + "previewd.sock" : dir + "/previewd.sock"
        }
        return fallbackDirectory(uid: uid) + "/previewd.sock"
    }

    /// Why a folder with this owner and mode is not safe to hold the control socket, or nil when it
    /// is: it must be a folder of `user`'s (or root's) and not writable by others unless sticky (as
    /// /tmp is), since whoever can write there can put a socket of their own where previewctl looks.
    /// previewd checks before it binds, previewctl before it connects.
    public static func folderProblem(isDirectory: Bool, owner: UInt32, mode: UInt32, user: UInt32) -> String? {
        guard isDirectory else { return "not a folder (a symbolic link?)" }
        guard owner == user || owner == 0 else { return "it belongs to uid \(owner)" }
        if mode & 0o022 != 0, mode & 0o1000 == 0 { return "others may write to it" }
        return nil
    }

    /// The private folder used when XDG_RUNTIME_DIR is unset.
    public static func fallbackDirectory(uid: UInt32 = getuid()) -> String {
        "/tmp/previewd-\(uid)"
    }
}
