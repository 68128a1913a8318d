/// The answer to `hello`.
public struct HelloReport: Codable, Equatable, Sendable {
    /// The control protocol's version; a client refuses a daemon whose major version differs.
    public var protocolVersion: Int
    /// The daemon's version.
    public var version: String

    /// This build's protocol and daemon versions.
    public static let current = HelloReport(protocolVersion: 1, version: PreviewVersion.string)
}

/// The version of previewd and previewctl.
public enum PreviewVersion {
    /// Semantic version of this build.
    public static let string = "0.1.0"
}
