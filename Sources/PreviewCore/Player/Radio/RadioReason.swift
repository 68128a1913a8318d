/// Why radio queued a track, as the listener reads it ("radio: more from Jack Johnson, whose
/// Banana Pancakes you marked"), and the lead it came from (`RadioLead.key`: "artist:909253"),
/// which a quick skip counts against. It stays as it was when its track was added.
public struct RadioReason: Equatable, Hashable, Sendable {
    /// The sentence shown in `status`, `queue` and the players.
    public var text: String
    /// The lead it came from; nil when read back from a report (the key never leaves previewd).
    public var key: String?

    /// A reason reading `text`, from the lead `key`.
    public init(_ text: String, key: String? = nil) {
        self.text = text
        self.key = key
    }
}
