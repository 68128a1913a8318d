/// The first line of a saved list's file (`lists/NAME.jsonl`); its tracks follow, one a line.
public struct SavedListHeader: Codable, Equatable, Sendable {
    /// The layout this previewd writes.
    public static let currentFormat = 1

    public var format = SavedListHeader.currentFormat
    /// The list's name (the file's, unescaped).
    public var name: String
    /// How many tracks follow.
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}
