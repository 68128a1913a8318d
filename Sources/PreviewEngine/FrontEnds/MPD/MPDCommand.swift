/// One entry of the command table, as MPD's src/command/AllCommands.cxx writes them:
/// `{ "addid", PERMISSION_ADD, 1, 2, handle_addid }`. The dispatcher checks the permission and
/// the count of arguments before the handler runs.
public struct MPDCommand: Sendable {
    /// Carries out a call, writing its answer into `call.response`.
    public typealias Handler = @Sendable (MPDCall) async throws(MPDError) -> Void

    /// The name clients send.
    public let name: String
    /// What the client must be allowed.
    public let permission: MPDPermission
    /// The fewest arguments.
    public let minArguments: Int
    /// The most arguments; nil: any number.
    public let maxArguments: Int?
    /// The handler.
    public let handler: Handler

    /// An entry.
    public init(_ name: String, _ permission: MPDPermission, _ minArguments: Int, _ maxArguments: Int?, _ handler: @escaping Handler) {
        self.name = name
        self.permission = permission
        self.minArguments = minArguments
        self.maxArguments = maxArguments
        self.handler = handler
    }
}
