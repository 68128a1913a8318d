import PreviewCore

/// One command being carried out: its arguments, the client's session, the engine it speaks to,
/// and the answer being written. Handlers (`MPDCommandTable`) get one; lives on the engine loop.
public final class MPDCall: @unchecked Sendable {   // confined to the engine loop's thread
    /// The command's name.
    public let name: String
    /// Its arguments, already counted against the table's bounds.
    public let arguments: [String]
    /// The client's state.
    public let session: MPDSession
    /// The engine's seam: the only way to the player.
    public let engine: EngineHandle
    /// The protocol (password, other clients, uptime).
    let server: MPDProtocol
    /// The answer's body so far.
    public var response = MPDResponse()

    init(name: String, arguments: [String], session: MPDSession, engine: EngineHandle, server: MPDProtocol) {
        self.name = name
        self.arguments = arguments
        self.session = session
        self.engine = engine
        self.server = server
    }

    /// Carries out `command` through the engine; its error in MPD's terms.
    public func perform(_ command: ControlCommand) async throws(MPDError) -> ControlResult {
        do throws(ControlError) { return try await engine.perform(command) } catch { throw MPDError(error) }
    }

    /// The player's state now.
    public func status() -> StatusReport { engine.status() }

    /// The queue now.
    public func queue() async throws(MPDError) -> QueueReport {
        guard case .queue(let report) = try await perform(.queue(since: nil)) else { throw MPDError(.system, "no queue") }
        return report
    }

    /// Argument `i`, if given.
    public func argument(_ i: Int) -> String? { i < arguments.count ? arguments[i] : nil }

    /// Argument `i` as an integer in `range`.
    public func int(_ i: Int, in range: ClosedRange<Int> = Int.min...Int.max) throws(MPDError) -> Int {
        guard let text = argument(i), let n = Int(text) else { throw MPDError(.arg, "Integer expected: \((argument(i) ?? "").prefix(32))") }
        guard n <= range.upperBound else { throw MPDError(.arg, "Number too large: \(n)") }
        guard n >= range.lowerBound else { throw MPDError(.arg, "Number too small: \(n)") }
        return n
    }

    /// Argument `i` as MPD's boolean (`0` or `1`).
    public func bool(_ i: Int) throws(MPDError) -> Bool {
        switch argument(i) {
        case "0": return false
        case "1": return true
        default: throw MPDError(.arg, "Boolean (0/1) expected: \((argument(i) ?? "").prefix(32))")
        }
    }

    /// Argument `i` as a float (MPD's ParseFloat: `nan` and `inf` too).
    public func float(_ i: Int) throws(MPDError) -> Double {
        guard let text = argument(i), let value = Double(text) else { throw MPDError(.arg, "Float expected: \((argument(i) ?? "").prefix(32))") }
        return value
    }

    /// Argument `i`, seconds (fractional, signed), in milliseconds.
    public func milliseconds(_ i: Int) throws(MPDError) -> Int {
        guard let text = argument(i), let seconds = Double(text), seconds.isFinite, abs(seconds) < 86_400 else {
            throw MPDError(.arg, "Float expected: \((argument(i) ?? "").prefix(32))")
        }
        return Int((seconds * 1000).rounded())
    }

    /// Adds `track`'s song fields with the client's tags (`previewMs`: its decoded preview's length).
    public func addSong(_ track: Track, position: Int? = nil, id: Int? = nil, previewMs: Int? = nil) {
        MPDSong.add(track, to: &response, tags: session.tags, position: position, id: id, previewMs: previewMs)
    }
}
