/// One verb of the control socket: a row of the table in `ControlVerbs.swift`, as MPD's
/// src/command/AllCommands.cxx writes a command. The socket's parsing and previewd-web's
/// allow-list read these rows, so a verb is named, permitted and parsed in one place.
public struct ControlVerb: Sendable {
    /// Reads a request's arguments (empty when it has none) into the command, or says what is wrong.
    public typealias Parser = @Sendable ([String: JSONValue]) throws(ControlError) -> ControlCommand

    /// Who may send a verb.
    public enum Access: Sendable {
        /// The socket's clients, and previewd-web's pages (its allow-list).
        case web
        /// The socket's clients only: previewd-web refuses it from a page.
        case local
    }

    /// What a verb may do to previewd's state.
    public enum Effect: Sendable {
        /// It only answers: the queue, playback, settings and saved lists stay as they are.
        case reads
        /// It may change the queue, playback, a setting or a saved list.
        case changes
    }

    /// The name on the wire (`cmd`).
    public let name: Name
    /// Who may send it.
    public let access: Access
    /// Whether it may change anything.
    public let effect: Effect
    /// Reads its arguments.
    public let parse: Parser

    /// A row of the table.
    init(_ name: Name, _ access: Access, _ effect: Effect, _ parse: @escaping Parser) {
        self.name = name
        self.access = access
        self.effect = effect
        self.parse = parse
    }
}
