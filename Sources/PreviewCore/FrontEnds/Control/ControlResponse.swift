/// The answer to a `ControlRequest`: `{"id": 7, "ok": true, "result": ...}` or
/// `{"id": 7, "ok": false, "error": {"code": "...", "message": "..."}}`.
public struct ControlResponse: Codable, Equatable, Sendable {
    /// The request's id, echoed.
    public var id: Int?
    /// Whether the command was carried out.
    public var ok: Bool
    /// The command's result when `ok`.
    public var result: JSONValue?
    /// Why it failed when not `ok`.
    public var error: ControlError?

    /// A success carrying `result`.
    public static func success(id: Int?, _ result: JSONValue?) -> ControlResponse {
        ControlResponse(id: id, ok: true, result: result, error: nil)
    }

    /// A failure carrying `error`.
    public static func failure(id: Int?, _ error: ControlError) -> ControlResponse {
        ControlResponse(id: id, ok: false, result: nil, error: error)
    }
}
