/// A line protocol served by a `LineServer` (the JSON control socket, MPD's): a parser and a
/// writer over connections the server owns. Called on the engine loop's thread only.
public protocol LineProtocol: AnyObject {
    /// The bounds the server keeps for this protocol's clients.
    var rules: LineRules { get }

    /// A client connected; what to send it first (MPD's `OK MPD 0.23.5`), or nothing.
    func greeting(for connection: LineConnection) -> [UInt8]

    /// A complete line (without its newline) from `connection`. Answer it exactly once with
    /// `connection.answer`, now or later (from a task on the loop); once the client has left, an
    /// answer is dropped and need not be given.
    func received(_ line: [UInt8], on connection: LineConnection)

    /// The last words before the server closes `connection` for `reason` (nothing: close silently).
    func farewell(_ reason: LineServer.Closing, for connection: LineConnection) -> [UInt8]

    /// `connection` is closed; what the protocol keeps for it can go.
    func disconnected(_ connection: LineConnection)
}

extension LineProtocol {
    /// No greeting.
    public func greeting(for connection: LineConnection) -> [UInt8] { [] }

    /// Closes silently.
    public func farewell(_ reason: LineServer.Closing, for connection: LineConnection) -> [UInt8] { [] }

    /// Keeps nothing per connection.
    public func disconnected(_ connection: LineConnection) {}
}
