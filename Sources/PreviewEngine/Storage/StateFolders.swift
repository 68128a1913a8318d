#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where previewd keeps what it must not lose: its state and history in `$XDG_STATE_HOME/previewd`
/// (else `~/.local/state/previewd`), the saved lists in `$XDG_DATA_HOME/previewd/lists` (else
/// `~/.local/share/previewd/lists`). Each folder is private (0700), each file 0600.
public enum StateFolders {
    /// The state folder; nil without XDG_STATE_HOME or HOME.
    public static func state(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        folder(environment["XDG_STATE_HOME"], home: environment["HOME"], fallback: "/.local/state").map { $0 + "/previewd" }
    }

    /// The saved lists' folder; nil without XDG_DATA_HOME or HOME.
    public static func lists(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        folder(environment["XDG_DATA_HOME"], home: environment["HOME"], fallback: "/.local/share").map { $0 + "/previewd/lists" }
    }

    /// Makes `path` a private folder of this user's; nil when it is one, else why not.
    public static func prepare(_ path: String) -> String? { PrivateFolder.make(path) }

    private static func folder(_ xdg: String?, home: String?, fallback: String) -> String? {
        if let xdg, xdg.hasPrefix("/") { return xdg }
        if let home, home.hasPrefix("/") { return home + fallback }
        return nil
    }
}
