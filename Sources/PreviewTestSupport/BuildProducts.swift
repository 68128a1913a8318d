import Foundation

/// The executables built beside the test bundle (`swift build --build-tests` builds them all).
public enum BuildProducts {
    /// The folder holding the test bundle and the package's executables.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["PREVIEWD_BIN_DIR"] {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of executable `name`, or nil when it has not been built.
    public static func path(_ name: String) -> String? {
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent(name).path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
