/// What `save` does when a list of that name exists (MPD's `save NAME create|append|replace`): a
/// list is never replaced unless the caller says so.
public enum ListSaveMode: String, Codable, CaseIterable, Sendable {
    /// A new list; an existing one is refused.
    case create
    /// After what the list holds (a new list when there is none).
    case append
    /// The list's tracks replaced (a new list when there is none).
    case replace
}
