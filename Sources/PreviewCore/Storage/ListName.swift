/// The name of a saved list, checked: it becomes a file name, so no `/`, no leading `.`, no
/// control characters, not empty, at most 200 bytes.
public struct ListName: Hashable, Sendable, CustomStringConvertible {
    /// The list the shortlist (`mark`) keeps.
    public static let marked = ListName(checked: "marked")

    /// The name as given.
    public let description: String

    /// `text` as a list name, or why it cannot be one.
    public init(_ text: String) throws(ControlError) {
        guard !text.isEmpty else { throw ControlError(.badArgument, "a list name cannot be empty") }
        guard text.utf8.count <= 200 else { throw ControlError(.badArgument, "a list name is at most 200 bytes") }
        guard !text.hasPrefix(".") else { throw ControlError(.badArgument, "a list name cannot start with \".\"") }
        guard !text.contains("/") else { throw ControlError(.badArgument, "a list name cannot contain \"/\"") }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) else {
            throw ControlError(.badArgument, "a list name cannot contain control characters")
        }
        description = text
    }

    private init(checked: String) { description = checked }
}
