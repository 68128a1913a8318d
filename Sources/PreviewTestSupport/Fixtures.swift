import Foundation

/// Paths of the committed fixtures (`Tests/Fixtures`): tone previews and the stand-in's catalog.
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static var directory: URL {
        URL(fileURLWithPath: #filePath)          // Sources/PreviewTestSupport/Fixtures.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures")
    }

    /// The tone preview `tone-<hz>.m4a`.
    public static func tone(_ hz: Int) -> URL {
        directory.appendingPathComponent("previews/tone-\(hz).m4a")
    }

    /// Every tone frequency the fixtures use, in Hz.
    public static let toneFrequencies: [Double] = [440, 550, 660, 770, 880, 990, 1100, 1250, 1400]

    /// The bundled catalog (iTunes JSON with `{{BASE}}` where the server's address goes).
    public static var catalog: URL { directory.appendingPathComponent("catalog.json") }
}
