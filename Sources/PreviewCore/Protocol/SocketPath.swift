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

    /// The private folder used when XDG_RUNTIME_DIR is unset.
    public static func fallbackDirectory(uid: UInt32 = getuid()) -> String {
        "/tmp/previewd-\(uid)"
    }
}
