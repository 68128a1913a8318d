/// A request on the control socket: one JSON object on one line, `{"id": 7, "cmd": "next", "args": {...}}`.
public struct ControlRequest: Codable, Equatable, Sendable {
    /// Chosen by the client and echoed in the response; may be absent.
    public var id: Int?
    /// The command name (a `ControlVerb.Name`; see `ControlVerb.all`).
    public var cmd: String
    /// Named arguments, an object; absent when the command takes none.
    public var args: [String: JSONValue]?

    /// A request for `cmd` with `args`.
    public init(id: Int? = nil, cmd: String, args: [String: JSONValue]? = nil) {
        self.id = id
        self.cmd = cmd
        self.args = args
    }

    /// A request for `verb` with `args`.
    public init(id: Int? = nil, verb: ControlVerb.Name, args: [String: JSONValue]? = nil) {
        self.init(id: id, cmd: verb.rawValue, args: args)
    }
}
