/// What the MPD protocol keeps for one client: whether it gave the password, the changes it has
/// not heard yet (each once), whether it waits in `idle` and for which subsystems, the command
/// list it is sending, its `binarylimit`, its tags, its channels and messages. Lives on the engine
/// loop's thread.
public final class MPDSession: @unchecked Sendable {   // confined to the engine loop's thread
    /// A command list being received (`command_list_begin` … `command_list_end`).
    struct CommandList {
        /// `command_list_ok_begin`: a `list_OK` after each command.
        var okEach: Bool
        var lines: [[UInt8]] = []
        var bytes = 0
    }

    /// The connection it belongs to.
    public weak var connection: LineConnection?
    /// True once the password was given (or when none is set).
    public var authorized: Bool
    /// Subsystems changed since this client last heard of them.
    public var pending: MPDSubsystems = []
    /// While the client waits in `idle`: the subsystems it waits for.
    public var idleMask: MPDSubsystems?
    /// The command list being received, if any.
    var list: CommandList?
    /// The largest binary chunk it takes (MPD's default 8192; `binarylimit`).
    public var binaryLimit = 8192
    /// The tags its songs carry (`tagtypes`).
    public var tags = Set(MPDTag.allCases)
    /// Its channels and the messages waiting for it (`subscribe`, `readmessages`).
    var mailbox = MPDMailbox()

    init(connection: LineConnection, authorized: Bool) {
        self.connection = connection
        self.authorized = authorized
    }

    /// May run commands that need `permission`.
    func may(_ permission: MPDPermission) -> Bool { permission == .none || authorized }
}
