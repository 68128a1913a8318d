/// Which page plays the queue itself ("Play here"), in the status and the `playhere` event; nil
/// (`null`) when none does and the box's outputs play.
public struct PlayHereReport: Codable, Equatable, Sendable {
    /// The page's own name for itself: a page that reads another name knows another device plays.
    public var page: String
    /// The box's device outputs are silent ("here only"); false: they play too.
    public var hereOnly: Bool

    public init(page: String, hereOnly: Bool) {
        self.page = page
        self.hereOnly = hereOnly
    }

    public init(_ claim: PageClaim) { self.init(page: claim.page, hereOnly: claim.hereOnly) }
}
