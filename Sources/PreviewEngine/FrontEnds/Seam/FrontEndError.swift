/// Why a front-end cannot start (the control socket's path is taken, systemd passed an unusable
/// socket): one line for the user, and previewd exits.
public struct FrontEndError: Error, Equatable, Sendable {
    /// One line for the user.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }
}
