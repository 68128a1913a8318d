/// What a command needs (MPD's PERMISSION_* in src/client/Permission.hxx). With a password set,
/// a client has only `none` until it gives the password; without one it has every permission.
public enum MPDPermission: Sendable, Equatable {
    /// Anyone: ping, password, close, commands, notcommands.
    case none
    /// Reading the state and the catalog.
    case read
    /// Adding to the queue.
    case add
    /// Playback and queue control.
    case control
    /// Administration.
    case admin
}
